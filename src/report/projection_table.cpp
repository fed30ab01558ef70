#include "report/projection_table.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/units.hpp"

namespace fb {
namespace {

std::string tail_cell(const ProjectionRow& r, double value, const char* spec) {
  if (r.tp == 1) return "-";
  if (r.tail != "measured") return "not measured";
  return fmt::format(fmt::runtime(spec), value);
}

std::string basis_cell(const ProjectionRow& r) {
  const std::string mark = comm_mark(r);
  if (mark.empty()) return "-";
  if (mark == "measured") return fmt::format("measured ({}-GPU curve)", r.curve_gpus);
  if (mark == "bounded") return fmt::format("bounded ({:.1f} GB/s busbw)", r.bound_gbps);
  if (r.curve_gpus == 0) return fmt::format("assumed ({:.1f} GB/s busbw)", r.bound_gbps);
  if (r.bound_gbps > 0)
    return fmt::format("assumed ({}-GPU curve, bound {:.1f} GB/s)", r.curve_gpus, r.bound_gbps);
  return fmt::format("assumed ({}-GPU curve)", r.curve_gpus);
}

std::string bound_line(const CommBound& b) {
  const std::string what = b.kind == "subset_ceiling"     ? "the ring ceiling of the best subset"
                           : b.kind == "network_measured" ? "the network, measured"
                           : b.kind == "network_expected" ? "the network, expected"
                           : b.kind == "given"            ? "assumed (--net-busbw)"
                                                          : b.kind;
  if (!(b.busbw_gbps > 0)) return fmt::format("Bound of {} GPUs: none: {}", b.gpus, b.unknown);
  return fmt::format("Bound of {} GPUs: {:.1f} GB/s busbw ({}{}): {}", b.gpus, b.busbw_gbps, what,
                     b.placement.empty() ? "" : fmt::format(" (GPUs {})", fmt::join(b.placement, ",")),
                     b.source);
}

}  // namespace

std::vector<std::string> projection_columns() {
  return {"TP",         "all_reduce", "compute (us)",   "comm (us)", "comm p99 (us)",
          "layer (us)", "pass (ms)",  "pass p99 (ms)",  "tokens/s",  "speedup",
          "efficiency", "comm share", "all_reduce from"};
}

std::string comm_mark(const ProjectionRow& r) {
  if (r.tp == 1) return "";
  if (!r.comm_basis.empty() && r.comm_basis != "none") return r.comm_basis;
  return r.assumed ? "assumed" : "measured";
}

std::vector<std::string> projection_cells(const ProjectionRow& r) {
  return {std::to_string(r.tp),
          r.tp > 1 ? format_bytes(r.allreduce_bytes) : "-",
          fmt::format("{:.1f}", r.compute_us),
          fmt::format("{:.1f}", r.comm_us),
          tail_cell(r, r.comm_p99_us, "{:.1f}"),
          fmt::format("{:.1f}", r.layer_us),
          fmt::format("{:.2f}", r.pass_ms),
          tail_cell(r, r.pass_p99_ms, "{:.2f}"),
          fmt::format("{:.0f}", r.tokens_per_s),
          fmt::format("{:.2f}x", r.speedup),
          fmt::format("{:.0f}%", r.efficiency * 100),
          fmt::format("{:.1f}%", r.comm_share * 100),
          basis_cell(r)};
}

std::string phase_title(const ProjectionPhase& ph) {
  return fmt::format("{} ({} token{} per pass; per GPU and per layer; pass = {})", ph.phase,
                     ph.tokens_per_pass, ph.tokens_per_pass == 1 ? "" : "s",
                     ph.phase == "prefill" ? "time to first token" : "one step, time per output token");
}

std::vector<std::string> answer_lines(const ProjectionPhase& ph) {
  std::vector<std::string> lines;
  lines.reserve(ph.answers.size() + 1);
  for (const auto& a : ph.answers)
    lines.push_back(fmt::format("{}: {}",
                                a.question == "fastest"              ? "Fastest for latency"
                                : a.question == "cheapest_that_pays" ? "Cheapest that still pays"
                                                                     : a.question,
                                a.words));
  if (lines.empty()) lines.push_back(fmt::format("Best TP={} (as the document says)", ph.best_tp));
  return lines;
}

std::vector<std::string> projection_inputs(const Projection& p) {
  const auto& m = p.model;
  std::vector<std::string> lines{
      fmt::format("Model: {} (hidden {}, {} layers, {} heads, {} KV heads, ffn {}, {})", m.name, m.hidden,
                  m.layers, m.heads, m.kv_heads, m.ffn, m.dtype)};
  if (!m.source.empty()) lines.push_back("Shapes from " + m.source);
  lines.push_back(fmt::format("Workload: batch {}, prompt {} tokens, decode {} tokens", p.workload.batch,
                              p.workload.prompt, p.workload.decode));
  lines.push_back(fmt::format("Compute: {:.1f} TFLOP/s bf16 GEMM, {:.0f} GB/s HBM ({})", p.rates.gemm_tflops,
                              p.rates.hbm_gbps, p.rates.source));
  for (const auto& c : p.curves)
    lines.push_back(fmt::format("Curve: all_reduce on {} GPUs, {}, {}, {} to {} ({} points, {}){}", c.gpus,
                                c.dtype, c.graph_launches > 0 ? "CUDA graphs" : "plain launches",
                                format_bytes(c.min_bytes), format_bytes(c.max_bytes), c.points,
                                c.tail_points > 0 ? fmt::format("{} with a tail", c.tail_points) : "no tail",
                                c.run.empty() ? "" : "; " + c.run));
  for (const auto& b : p.bounds) lines.push_back(bound_line(b));
  return lines;
}

std::vector<std::string> assumption_lines(const Projection& p) {
  std::vector<std::string> lines;
  lines.reserve(p.assumptions.size());
  for (const auto& t : p.assumptions) lines.push_back(fmt::format("{} = {}: {}", t.name, t.value, t.note));
  return lines;
}

std::string marks_legend() {
  return "all_reduce from: measured = the document's curve of that many GPUs; bounded = no such curve, held "
         "to the bandwidth bound of that many GPUs (the time it cannot beat); assumed = another GPU count's "
         "curve at equal busbw, or a figure given on the command line";
}

}  // namespace fb
