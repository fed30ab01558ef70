#pragma once
// Fills verification inputs and counts wrong output elements on the GPU
// (values and expectations: core/verify_values.hpp).
#include <cstddef>
#include <cstdint>

#include "core/dtypes.hpp"
#include "core/verify_values.hpp"
#include "gpu/runtime.hpp"

namespace fb::gpu {

struct VerifyParams {
  verify::ValueRule rule;
  VerifyLayout layout;
  int rank = 0;
  int root = 0;
  std::size_t block = 0;  // CollectiveCounts::param
};

// Writes rank `rank`'s input: element i gets input_value(rule, rank, i).
void fill_inputs(void* buffer, std::size_t count, DType t, const verify::ValueRule& rule, int rank,
                 const Stream& s);

class Verifier {
 public:
  Verifier();
  // Number of the `count` output elements that differ from the expected value.
  std::uint64_t count_wrong(const void* out, std::size_t count, DType t, const VerifyParams& p,
                            const Stream& s);

 private:
  DeviceBuffer counter_;
};

}  // namespace fb::gpu
