#include "core/dtypes.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <vector>

#include "core/error.hpp"

namespace fb {
namespace {

constexpr double k2p24 = 16777216.0;
constexpr double k2p53 = 9007199254740992.0;

// Exact-integer limits: 2^(mantissa bits + 1) for floats, the positive range for integers
// (capped at 2^53, since expected values are computed in double).
constexpr std::array<DTypeInfo, 12> kDTypes{{
    {DType::int8, "int8", "char", 1, false, 127, 0, 0},
    {DType::uint8, "uint8", "", 1, false, 255, 0, 0},
    {DType::int32, "int32", "int", 4, false, 2147483647.0, 0, 0},
    {DType::uint32, "uint32", "", 4, false, 4294967295.0, 0, 0},
    {DType::int64, "int64", "", 8, false, k2p53, 0, 0},
    {DType::uint64, "uint64", "", 8, false, k2p53, 0, 0},
    {DType::float16, "half", "float16,fp16", 2, true, 2048, 0, 0},
    {DType::bfloat16, "bfloat16", "bf16", 2, true, 256, 21000, 0},
    {DType::float32, "float", "float32,fp32", 4, true, k2p24, 0, 0},
    {DType::float64, "double", "float64,fp64", 8, true, k2p53, 0, 0},
    // NCCL added the fp8 types in 2.24 and reduces them only on sm_90 and newer.
    {DType::fp8_e4m3, "f8e4m3", "fp8_e4m3,float8e4m3", 1, true, 16, 22400, 90},
    {DType::fp8_e5m2, "f8e5m2", "fp8_e5m2,float8e5m2", 1, true, 8, 22400, 90},
}};

constexpr std::array<RedOpInfo, 5> kRedOps{{{RedOp::sum, "sum"},
                                            {RedOp::prod, "prod"},
                                            {RedOp::max, "max"},
                                            {RedOp::min, "min"},
                                            {RedOp::avg, "avg"}}};

bool matches(std::string_view name, const DTypeInfo& t) {
  if (name == t.name) return true;
  std::string_view rest = t.aliases;
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    if (rest.substr(0, comma) == name) return true;
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return false;
}

}  // namespace

std::span<const DTypeInfo> all_dtypes() { return kDTypes; }
std::span<const RedOpInfo> all_redops() { return kRedOps; }

const DTypeInfo& dtype_info(DType t) { return kDTypes.at(static_cast<size_t>(t)); }
const RedOpInfo& redop_info(RedOp op) { return kRedOps.at(static_cast<size_t>(op)); }

DType parse_dtype(std::string_view name) {
  std::vector<std::string_view> names;
  for (const auto& t : kDTypes) {
    if (matches(name, t)) return t.id;
    names.push_back(t.name);
  }
  FB_USAGE_ERROR(
      fmt::format("unknown data type '{}': expected one of {} (or 'all')", name, fmt::join(names, ", ")));
}

RedOp parse_redop(std::string_view name) {
  std::vector<std::string_view> names;
  for (const auto& op : kRedOps) {
    if (name == op.name) return op.id;
    names.push_back(op.name);
  }
  FB_USAGE_ERROR(
      fmt::format("unknown reduction op '{}': expected one of {} (or 'all')", name, fmt::join(names, ", ")));
}

}  // namespace fb
