#include "report/projection_console.hpp"

#include <fmt/format.h>

#include "core/units.hpp"

namespace fb {
namespace {

std::string header(const Projection& p) {
  const auto& m = p.model;
  std::string out = fmt::format("Model: {} (hidden {}, {} layers, {} heads, {} KV heads, ffn {}, {})\n",
                                m.name, m.hidden, m.layers, m.heads, m.kv_heads, m.ffn, m.dtype);
  if (!m.source.empty()) out += fmt::format("  shapes from {}\n", m.source);
  out += fmt::format("Workload: batch {}, prompt {} tokens, decode {} tokens\n", p.workload.batch,
                     p.workload.prompt, p.workload.decode);
  out += fmt::format("Compute: {:.1f} TFLOP/s bf16 GEMM, {:.0f} GB/s HBM ({})\n", p.rates.gemm_tflops,
                     p.rates.hbm_gbps, p.rates.source);
  for (const auto& c : p.curves)
    out += fmt::format("Curve: all_reduce on {} GPUs, {}, {}, {} to {} ({} points)\n", c.gpus, c.dtype,
                       c.graph_launches > 0 ? "CUDA graphs" : "plain launches", format_bytes(c.min_bytes),
                       format_bytes(c.max_bytes), c.points);
  return out;
}

std::string row_line(const ProjectionRow& r) {
  const std::string ar = r.tp > 1 ? format_bytes(r.allreduce_bytes) : "-";
  const std::string curve = r.tp == 1   ? ""
                            : r.assumed ? fmt::format("  (assumed from {} GPUs)", r.curve_gpus)
                                        : "";
  return fmt::format(
      "{:>4} {:>11} {:>12.1f} {:>10.1f} {:>10.1f} {:>10.1f} {:>10.2f} {:>10.2f} {:>12.0f} {:>7.2f}x "
      "{:>5.0f}% {:>6.1f}%{}\n",
      r.tp, ar, r.compute_us, r.comm_us, r.comm_p99_us, r.layer_us, r.pass_ms, r.pass_p99_ms, r.tokens_per_s,
      r.speedup, r.efficiency * 100, r.comm_share * 100, curve);
}

std::string verdict(const ProjectionPhase& ph) {
  if (ph.rows.size() < 2) return "  Only TP=1 projected.\n";
  if (ph.stops_paying_at_tp == 0) return fmt::format("  Every TP listed pays: best TP={}.\n", ph.best_tp);
  return fmt::format("  Adding GPUs stops paying at TP={}: best TP={}.\n", ph.stops_paying_at_tp, ph.best_tp);
}

std::string phase_table(const ProjectionPhase& ph) {
  const char* pass =
      ph.phase == "prefill" ? "pass = time to first token" : "pass = one step, time per output token";
  std::string out = fmt::format("\n{} ({} tokens per pass; per GPU and per layer, {})\n", ph.phase,
                                ph.tokens_per_pass, pass);
  out += fmt::format("{:>4} {:>11} {:>12} {:>10} {:>10} {:>10} {:>10} {:>10} {:>12} {:>8} {:>6} {:>7}\n",
                     "TP", "all_reduce", "compute(us)", "comm(us)", "p99(us)", "layer(us)", "pass(ms)",
                     "p99(ms)", "tokens/s", "speedup", "eff", "comm");
  for (const auto& r : ph.rows) out += row_line(r);
  return out + verdict(ph);
}

}  // namespace

std::string projection_table(const Projection& p) {
  std::string out = header(p);
  for (const auto& ph : p.phases) out += phase_table(ph);
  out += "\nAssumptions (docs/projection.md):\n";
  for (const auto& t : p.assumptions) out += fmt::format("  {} = {}: {}\n", t.name, t.value, t.note);
  return out;
}

}  // namespace fb
