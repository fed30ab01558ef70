#include "projection/tp_projection.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/error.hpp"
#include "projection/model_presets.hpp"
#include "projection/projection_terms.hpp"
#include "projection/tp_layer.hpp"

namespace fb {

ProjectionRow project_layer(const ProjectionRequest& q, const std::map<int, AllReduceCurve>& curves, int tp,
                            std::int64_t tokens) {
  ProjectionRow row;
  row.tp = tp;
  row.allreduce_bytes = allreduce_bytes(q.model, tokens);
  row.flops_per_gpu = layer_flops(q.model, tp, tokens);
  row.weight_bytes_per_gpu = layer_weight_bytes(q.model, tp);
  const std::int64_t elt = element_bytes(q.model.dtype);
  for (const auto& g : tp_layer_gemms(q.model, tp, tokens))
    row.compute_us += gemm_time_us(g, elt, q.rates, q.gemm_us);
  if (tp > 1) {
    const CommTime comm = allreduce_time(curves, tp, row.allreduce_bytes, q.assume);
    row.comm_us = 2 * comm.time.median_us;  // after attention and after the MLP
    row.comm_p99_us = 2 * comm.time.p99_us;
    row.curve_gpus = comm.curve_gpus;
    row.assumed = comm.assumed;
  }
  row.layer_us = q.overlap ? std::max(row.compute_us, row.comm_us) : row.compute_us + row.comm_us;
  row.layer_p99_us = q.overlap ? std::max(row.compute_us, row.comm_p99_us) : row.compute_us + row.comm_p99_us;
  const auto layers = static_cast<double>(q.model.layers);
  row.pass_ms = row.layer_us * layers / 1e3;
  row.pass_p99_ms = row.layer_p99_us * layers / 1e3;
  row.comm_share = row.layer_us > 0 ? std::min(row.comm_us, row.layer_us) / row.layer_us : 0;
  return row;
}

namespace {

ProjectionPhase project_phase(const ProjectionRequest& q, const std::map<int, AllReduceCurve>& curves,
                              const std::vector<int>& degrees, bool prefill) {
  ProjectionPhase phase;
  phase.phase = prefill ? "prefill" : "decode";
  phase.tokens_per_pass = prefill ? q.workload.batch * q.workload.prompt : q.workload.batch;
  for (const int tp : degrees) {
    ProjectionRow row = project_layer(q, curves, tp, phase.tokens_per_pass);
    row.tokens_per_s = static_cast<double>(phase.tokens_per_pass) / (row.pass_ms / 1e3);
    phase.rows.push_back(row);
  }
  judge_scaling(phase, q.pays_share);
  return phase;
}

void check_request(const ProjectionRequest& q) {
  check_model_shape(q.model);
  const std::pair<const char*, std::int64_t> sizes[] = {
      {"--batch", q.workload.batch}, {"--prompt", q.workload.prompt}, {"--decode", q.workload.decode}};
  for (const auto& [flag, value] : sizes)
    if (value <= 0) FB_USAGE_ERROR(fmt::format("{} must be a positive number (got {})", flag, value));
  if (!(q.rates.gemm_tflops > 0) || !(q.rates.hbm_gbps > 0))
    FB_USAGE_ERROR("the GPU's GEMM rate and HBM bandwidth must be positive (--gemm-tflops, --hbm-gbps)");
  if (!(q.pays_share > 0 && q.pays_share <= 1)) FB_USAGE_ERROR("--pays-share must be in (0, 1]");
  for (const int tp : q.tp) check_tp_degree(q.model, tp);
}

}  // namespace

CommTime allreduce_time(const std::map<int, AllReduceCurve>& curves, int tp, std::uint64_t bytes,
                        bool assume) {
  if (const auto own = curves.find(tp); own != curves.end()) return {own->second.at(bytes), tp, false};
  std::vector<int> counts;
  counts.reserve(curves.size());
  for (const auto& [gpus, curve] : curves) counts.push_back(gpus);
  if (counts.empty())
    FB_USAGE_ERROR(fmt::format("--tp {}: the result holds no all_reduce measured on 2 or more GPUs", tp));
  if (!assume)
    FB_USAGE_ERROR(
        fmt::format("--tp {}: the result covers all_reduce on {} GPUs only; measure on {} GPUs, or pass "
                    "--assume to use the "
                    "{}-GPU curve at the same busbw",
                    tp, fmt::join(counts, ", "), tp, counts.back()));
  const AllReduceCurve& nearest = curves.rbegin()->second;
  const AllReduceTime measured = nearest.at(bytes);
  const double scale = allreduce_bus_factor(tp) / allreduce_bus_factor(nearest.source().gpus);
  return {{measured.median_us * scale, measured.p99_us * scale}, nearest.source().gpus, true};
}

void judge_scaling(ProjectionPhase& phase, double pays_share) {
  if (phase.rows.empty()) return;
  const double base_ms = phase.rows.front().pass_ms;
  phase.best_tp = phase.rows.front().tp;
  phase.stops_paying_at_tp = 0;
  for (std::size_t i = 0; i < phase.rows.size(); ++i) {
    auto& row = phase.rows[i];
    row.speedup = base_ms / row.pass_ms;
    row.efficiency = row.speedup / row.tp;
    if (i == 0 || phase.stops_paying_at_tp != 0) continue;
    const auto& prev = phase.rows[i - 1];
    const double ideal_gain = static_cast<double>(row.tp) / prev.tp - 1;
    const double gain = row.speedup / prev.speedup - 1;
    if (gain >= pays_share * ideal_gain)
      phase.best_tp = row.tp;
    else
      phase.stops_paying_at_tp = row.tp;
  }
}

Projection project_tensor_parallel(const ProjectionRequest& q, const std::map<int, AllReduceCurve>& curves) {
  check_request(q);
  std::vector<int> degrees = q.tp;
  degrees.push_back(1);
  std::sort(degrees.begin(), degrees.end());
  degrees.erase(std::unique(degrees.begin(), degrees.end()), degrees.end());
  Projection p;
  p.model = q.model;
  p.workload = q.workload;
  p.rates = q.rates;
  for (const auto& [gpus, curve] : curves) p.curves.push_back(curve.source());
  p.assumptions = projection_terms(q);
  p.phases.push_back(project_phase(q, curves, degrees, true));
  p.phases.push_back(project_phase(q, curves, degrees, false));
  return p;
}

}  // namespace fb
