#pragma once
// nlohmann mappings of the result document's `projection` (docs/result-schema.md): every field
// by its name.
#include <nlohmann/json.hpp>

#include "model/projection.hpp"

namespace fb {

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ModelShape, name, source, hidden, layers, heads, kv_heads, ffn, dtype)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Workload, batch, prompt, decode)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ProjectionTerm, name, value, note)
// The members added in 1.6 take their defaults where an older document lacks them (WITH_DEFAULT).
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ProjectionRow, tp, allreduce_bytes, flops_per_gpu,
                                                weight_bytes_per_gpu, compute_us, comm_us, comm_p99_us,
                                                layer_us, layer_p99_us, pass_ms, pass_p99_ms, tokens_per_s,
                                                speedup, efficiency, comm_share, curve_gpus, assumed,
                                                comm_basis, comm_source, bound_gbps, tail)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ProjectionAnswer, question, tp, words)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ProjectionPhase, phase, tokens_per_pass, rows, best_tp,
                                                stops_paying_at_tp, fastest_tp, answers)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ComputeRates, gemm_tflops, hbm_gbps, source)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(CurveSource, gpus, dtype, graph_launches, min_bytes,
                                                max_bytes, points, tail_points, hosts, run)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(CommBound, gpus, busbw_gbps, kind, placement, source, unknown)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Projection, model, workload, rates, curves, bounds,
                                                assumptions, phases)

}  // namespace fb
