#pragma once
// One Megatron-style tensor-parallel decoder layer as one GPU of `tp` runs it: the shapes of its
// four GEMMs, their FLOPs and bytes, and the size of its two all_reduces (docs/projection.md).
#include <array>
#include <cstdint>
#include <map>

#include "model/projection.hpp"

namespace fb {

// One GEMM: [tokens x k] times [k x n] weights, per GPU.
struct GemmShape {
  const char* name = "";  // "qkv", "attn_out", "gate_up", "down"
  std::int64_t m = 0;     // tokens in the pass
  std::int64_t n = 0;
  std::int64_t k = 0;
  [[nodiscard]] double flops() const {
    return 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
  }
  [[nodiscard]] double weight_elements() const { return static_cast<double>(n) * static_cast<double>(k); }
  // Activations read and written once.
  [[nodiscard]] double activation_elements() const {
    return static_cast<double>(m) * static_cast<double>(n + k);
  }
};

// Column-parallel QKV and gate/up, row-parallel attention output and down: each GPU holds heads/tp
// query heads, kv_heads/tp KV heads (one copy when tp exceeds kv_heads) and ffn/tp of the MLP.
std::array<GemmShape, 4> tp_layer_gemms(const ModelShape& m, int tp, std::int64_t tokens);

// The bytes of each of the layer's two all_reduces (after attention, after the MLP): the
// partial sums of every token's hidden vector. The same at every TP degree.
std::uint64_t allreduce_bytes(const ModelShape& m, std::int64_t tokens);

// Sums over the layer's GEMMs, per GPU.
double layer_flops(const ModelShape& m, int tp, std::int64_t tokens);
double layer_weight_bytes(const ModelShape& m, int tp);

// GEMM times measured at their shapes, in microseconds, keyed by {m, n, k}.
using GemmTimes = std::map<std::array<std::int64_t, 3>, double>;

// Time of one GEMM on the roofline of the rates: the longer of its FLOPs at the GEMM rate and
// its bytes (weights + activations) at the HBM bandwidth.
double gemm_roofline_us(const GemmShape& g, std::int64_t element_bytes, const ComputeRates& rates);

// The measured time when `measured` has the shape, else the roofline.
double gemm_time_us(const GemmShape& g, std::int64_t element_bytes, const ComputeRates& rates,
                    const GemmTimes& measured);

}  // namespace fb
