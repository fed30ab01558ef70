#include "tp_step/tp_measure.hpp"

#include <fmt/format.h>

#include <cmath>

#include "gpu/runtime.hpp"
#include "projection/model_presets.hpp"
#include "tp_step/tp_layer_rig.hpp"

namespace fb {
namespace {

constexpr std::int64_t kRateSide = 8192;
constexpr std::uint64_t kCopyBytes = 1u << 30;
constexpr double kValidationTolerance = 0.15;

// The projection of one validation case from its parts, through the model's own code.
ValidationRow project_case(TpLayerRig& rig, const ModelShape& m, int tp, std::int64_t tokens) {
  ProjectionRequest q;
  q.model = m;
  q.rates = {1, 1, "unused: every GEMM measured"};
  for (const auto& g : tp_layer_gemms(m, tp, tokens)) q.gemm_us[{g.m, g.n, g.k}] = rig.gemm(g).median_us;
  CommInputs comm;
  if (tp > 1) {
    const auto bytes = allreduce_bytes(m, tokens);
    const auto t = rig.all_reduce(bytes);
    CurveSource source;
    source.gpus = tp;
    source.dtype = "bfloat16";
    source.graph_launches = 1;
    source.run = "timed here";
    comm.curves.emplace(tp, AllReduceCurve(source, {{bytes, t.median_us, 0}}));  // graphs: no single-op tail
  }
  const ProjectionRow row = project_layer(q, comm, tp, tokens);
  ValidationRow v;
  v.tokens = tokens;
  v.tp = tp;
  v.projected_us = row.layer_us;
  v.compute_us = row.compute_us;
  v.comm_us = row.comm_us;
  return v;
}

}  // namespace

MeasuredCompute measure_compute(const ModelShape& m, const std::vector<int>& tps,
                                const std::vector<std::int64_t>& tokens) {
  TpLayerRig rig(nullptr, 1);
  MeasuredCompute out;
  for (const int tp : tps)
    for (const auto t : tokens)
      for (const auto& g : tp_layer_gemms(m, tp, t))
        if (!out.gemm_us.contains({g.m, g.n, g.k})) out.gemm_us[{g.m, g.n, g.k}] = rig.gemm(g).median_us;
  const GemmShape big{"rate", kRateSide, kRateSide, kRateSide};
  out.rates.gemm_tflops = big.flops() / (rig.gemm(big).median_us * 1e-6) / 1e12;
  out.rates.hbm_gbps = rig.copy_gbps(kCopyBytes);
  out.rates.source = fmt::format("measured on GPU 0 ({})", gpu::device_props(0).name);
  return out;
}

std::vector<ValidationRow> validate_tp_layer(const ModelShape& m, std::shared_ptr<const NcclLibrary> lib) {
  TpLayerRig rig(std::move(lib), 2);
  std::vector<ValidationRow> rows;
  const std::pair<const char*, std::int64_t> cases[] = {
      {"decode", 1}, {"decode", 8}, {"decode", 64}, {"prefill", 2048}};
  for (const auto& [phase, tokens] : cases)
    for (const int tp : {1, 2}) {
      check_tp_degree(m, tp);
      ValidationRow v = project_case(rig, m, tp, tokens);
      v.phase = phase;
      v.measured_us = rig.layer(m, tp, tokens).median_us;
      rows.push_back(v);
    }
  return rows;
}

bool validation_within(const std::vector<ValidationRow>& rows, double tolerance) {
  for (const auto& r : rows)
    if (std::abs(r.projected_us - r.measured_us) > tolerance * r.measured_us) return false;
  return true;
}

std::string validation_table(const std::vector<ValidationRow>& rows) {
  std::string out = fmt::format("{:<8} {:>7} {:>3} {:>14} {:>14} {:>12} {:>10} {:>11}\n", "phase", "tokens",
                                "TP", "projected(us)", "measured(us)", "difference", "GEMMs(us)", "comm(us)");
  for (const auto& r : rows) {
    const double diff = (r.projected_us - r.measured_us) / r.measured_us;
    out += fmt::format("{:<8} {:>7} {:>3} {:>14.1f} {:>14.1f} {:>+11.1f}% {:>10.1f} {:>11.1f}\n", r.phase,
                       r.tokens, r.tp, r.projected_us, r.measured_us, diff * 100, r.compute_us, r.comm_us);
  }
  out += validation_within(rows, kValidationTolerance) ? "Every row within 15%.\n"
                                                       : "Some rows differ by more than 15%.\n";
  return out;
}

}  // namespace fb
