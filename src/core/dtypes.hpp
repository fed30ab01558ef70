#pragma once
// Element types and reduction operations, as data: one row per type, one per op.
#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace fb {

enum class DType {
  int8,
  uint8,
  int32,
  uint32,
  int64,
  uint64,
  float16,
  bfloat16,
  float32,
  float64,
  fp8_e4m3,
  fp8_e5m2
};

struct DTypeInfo {
  DType id;
  std::string_view name;     // nccl-tests' name
  std::string_view aliases;  // other accepted spellings, comma separated
  std::size_t size;          // bytes per element
  bool is_float;
  // Largest integer such that every integer 0..limit is exact in this type: reductions of
  // verification inputs stay at or below it so that results are exact.
  double exact_int_limit;
  int min_nccl_version;        // NCCL_VERSION_CODE that introduced the type
  int min_compute_capability;  // NCCL reduces this type only on GPUs of at least this (x10)
};

enum class RedOp { sum, prod, max, min, avg };

struct RedOpInfo {
  RedOp id;
  std::string_view name;
};

std::span<const DTypeInfo> all_dtypes();
std::span<const RedOpInfo> all_redops();

const DTypeInfo& dtype_info(DType t);
const RedOpInfo& redop_info(RedOp op);

// Look-ups by name; throw a usage error listing the valid names.
DType parse_dtype(std::string_view name);
RedOp parse_redop(std::string_view name);

}  // namespace fb
