#include "projection/tp_layer.hpp"

#include <algorithm>

#include "projection/model_presets.hpp"

namespace fb {

std::array<GemmShape, 4> tp_layer_gemms(const ModelShape& m, int tp, std::int64_t tokens) {
  const std::int64_t head_dim = m.hidden / m.heads;
  const std::int64_t q_heads = m.heads / tp;
  const std::int64_t kv_heads = std::max<std::int64_t>(1, m.kv_heads / tp);  // replicated past kv_heads
  return {{
      {"qkv", tokens, (q_heads + 2 * kv_heads) * head_dim, m.hidden},
      {"attn_out", tokens, m.hidden, q_heads * head_dim},
      {"gate_up", tokens, 2 * (m.ffn / tp), m.hidden},
      {"down", tokens, m.hidden, m.ffn / tp},
  }};
}

std::uint64_t allreduce_bytes(const ModelShape& m, std::int64_t tokens) {
  return static_cast<std::uint64_t>(tokens) * static_cast<std::uint64_t>(m.hidden) *
         static_cast<std::uint64_t>(element_bytes(m.dtype));
}

double layer_flops(const ModelShape& m, int tp, std::int64_t tokens) {
  double total = 0;
  for (const auto& g : tp_layer_gemms(m, tp, tokens)) total += g.flops();
  return total;
}

double layer_weight_bytes(const ModelShape& m, int tp) {
  double total = 0;
  for (const auto& g : tp_layer_gemms(m, tp, 1)) total += g.weight_elements();
  return total * static_cast<double>(element_bytes(m.dtype));
}

double gemm_roofline_us(const GemmShape& g, std::int64_t element_bytes, const ComputeRates& rates) {
  const double bytes = (g.weight_elements() + g.activation_elements()) * static_cast<double>(element_bytes);
  const double compute_s = g.flops() / (rates.gemm_tflops * 1e12);
  const double memory_s = bytes / (rates.hbm_gbps * 1e9);
  return std::max(compute_s, memory_s) * 1e6;
}

}  // namespace fb

namespace fb {

double gemm_time_us(const GemmShape& g, std::int64_t element_bytes, const ComputeRates& rates,
                    const GemmTimes& measured) {
  const auto it = measured.find({g.m, g.n, g.k});
  return it != measured.end() ? it->second : gemm_roofline_us(g, element_bytes, rates);
}

}  // namespace fb
