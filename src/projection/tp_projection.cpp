#include "projection/tp_projection.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "core/error.hpp"
#include "projection/model_presets.hpp"
#include "projection/projection_terms.hpp"
#include "projection/scaling_answers.hpp"
#include "projection/tp_layer.hpp"

namespace fb {

ProjectionRow project_layer(const ProjectionRequest& q, const CommInputs& comm, int tp, std::int64_t tokens) {
  ProjectionRow row;
  row.tp = tp;
  row.allreduce_bytes = allreduce_bytes(q.model, tokens);
  row.flops_per_gpu = layer_flops(q.model, tp, tokens);
  row.weight_bytes_per_gpu = layer_weight_bytes(q.model, tp);
  const std::int64_t elt = element_bytes(q.model.dtype);
  for (const auto& g : tp_layer_gemms(q.model, tp, tokens))
    row.compute_us += gemm_time_us(g, elt, q.rates, q.gemm_us);
  row.comm_basis = "none";
  row.tail = "none";
  if (tp > 1) {
    const CommTime t = allreduce_time(comm.curves, comm.bounds, tp, row.allreduce_bytes, q.assume);
    row.comm_us = 2 * t.time.median_us;  // after attention and after the MLP
    row.comm_p99_us = 2 * t.time.tail_p99_us;
    row.curve_gpus = t.curve_gpus;
    row.assumed = t.assumed();
    row.comm_basis = t.basis;
    row.comm_source = t.source;
    row.bound_gbps = t.bound_gbps;
    row.tail = t.time.tail_measured() ? "measured" : "not measured";
  }
  const auto combine = [&](double comm_us) {
    return q.overlap ? std::max(row.compute_us, comm_us) : row.compute_us + comm_us;
  };
  const auto layers = static_cast<double>(q.model.layers);
  row.layer_us = combine(row.comm_us);
  row.pass_ms = row.layer_us * layers / 1e3;
  if (row.tail != "not measured") {  // TP=1 has no all_reduce: its p99 is its pass
    row.layer_p99_us = combine(row.comm_p99_us);
    row.pass_p99_ms = row.layer_p99_us * layers / 1e3;
  }
  row.comm_share = row.layer_us > 0 ? std::min(row.comm_us, row.layer_us) / row.layer_us : 0;
  return row;
}

namespace {

ProjectionPhase project_phase(const ProjectionRequest& q, const CommInputs& comm,
                              const std::vector<int>& degrees, bool prefill) {
  ProjectionPhase phase;
  phase.phase = prefill ? "prefill" : "decode";
  phase.tokens_per_pass = prefill ? q.workload.batch * q.workload.prompt : q.workload.batch;
  for (const int tp : degrees) {
    ProjectionRow row = project_layer(q, comm, tp, phase.tokens_per_pass);
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

// The bounds handed in for the TPs whose all_reduce was not measured in some row, in TP order.
std::vector<CommBound> used_bounds(const CommInputs& comm, const std::vector<ProjectionPhase>& phases) {
  std::set<int> tps;
  for (const auto& ph : phases)
    for (const auto& row : ph.rows)
      if (row.tp > 1 && row.comm_basis != "measured") tps.insert(row.tp);
  std::vector<CommBound> used;
  for (const int tp : tps)
    if (const auto b = comm.bounds.find(tp); b != comm.bounds.end()) used.push_back(b->second);
  return used;
}

}  // namespace

std::vector<int> projected_degrees(const ProjectionRequest& q) {
  std::vector<int> degrees = q.tp;
  degrees.push_back(1);
  std::sort(degrees.begin(), degrees.end());
  degrees.erase(std::unique(degrees.begin(), degrees.end()), degrees.end());
  return degrees;
}

Projection project_tensor_parallel(const ProjectionRequest& q, const CommInputs& comm) {
  check_request(q);
  const std::vector<int> degrees = projected_degrees(q);
  Projection p;
  p.model = q.model;
  p.workload = q.workload;
  p.rates = q.rates;
  for (const auto& [gpus, curve] : comm.curves) p.curves.push_back(curve.source());
  p.phases.push_back(project_phase(q, comm, degrees, true));
  p.phases.push_back(project_phase(q, comm, degrees, false));
  p.bounds = used_bounds(comm, p.phases);
  p.assumptions = projection_terms(q, p);
  return p;
}

}  // namespace fb
