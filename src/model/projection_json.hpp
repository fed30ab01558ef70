#pragma once
// nlohmann mappings of the result document's `projection` (docs/result-schema.md): every field
// by its name.
#include <nlohmann/json.hpp>

#include "model/projection.hpp"

namespace fb {

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ModelShape, name, source, hidden, layers, heads, kv_heads, ffn, dtype)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Workload, batch, prompt, decode)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ProjectionTerm, name, value, note)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ProjectionRow, tp, allreduce_bytes, flops_per_gpu, weight_bytes_per_gpu,
                                   compute_us, comm_us, comm_p99_us, layer_us, layer_p99_us, pass_ms,
                                   pass_p99_ms, tokens_per_s, speedup, efficiency, comm_share, curve_gpus,
                                   assumed)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ProjectionPhase, phase, tokens_per_pass, rows, best_tp, stops_paying_at_tp)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ComputeRates, gemm_tflops, hbm_gbps, source)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(CurveSource, gpus, dtype, graph_launches, min_bytes, max_bytes, points)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Projection, model, workload, rates, curves, assumptions, phases)

}  // namespace fb
