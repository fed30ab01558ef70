#include "analyse/compare.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <map>

#include "core/error.hpp"

namespace fb {
namespace {

struct Figure {
  std::uint64_t bytes;
  double value;
  double noise;  // relative
  bool lower_is_better;
};

// Unknown intervals (too few samples) count as 5% noise.
double rel_noise(double ci) { return std::isfinite(ci) && ci > 0 ? ci : 0.05; }

std::map<std::string, Figure> figures(const Result& r) {
  std::map<std::string, Figure> out;
  for (const auto& run : r.runs) {
    std::string forced;
    for (const auto& [k, v] : run.forced) forced += fmt::format(" {}={}", k, v);
    for (const auto& p : run.points) {
      // Not the launcher: the same collective on as many GPUs is the same figure whether
      // fabricbench, mpirun or torchrun started the ranks - which is what comparing them checks.
      // The buffers' fill is: zeros read up to 4.5% less than the pattern (docs/metrics.md).
      // Not the allocator either: ncclMemAlloc and cudaMalloc buffers read the same within noise
      // on 2 x H200, and documents from before `alloc` was recorded still compare.
      const auto key = fmt::format(
          "{} {} {}{} {} B {}-place {} GPUs{}{}{}", run.kind, run.collective, run.dtype,
          run.op.empty() ? "" : " " + run.op, p.bytes, p.in_place ? "in" : "out", run.gpus.size(),
          run.graph_launches ? " graph" : "", forced, run.fill.empty() ? "" : " fill=" + run.fill);
      out[key] = {p.bytes, p.busbw_gbps > 0 ? p.busbw_gbps : p.algbw_gbps, rel_noise(p.time_us.median_ci),
                  false};
    }
  }
  for (const auto& m : r.p2p) {
    if (m.samples == 0) continue;
    const double spread = m.value > 0 ? (m.max - m.min) / (2 * m.value) : 0.05;
    out[fmt::format("p2p {} {}->{} {} B", m.test, m.src, m.dst, m.bytes)] = {
        m.bytes, m.value, std::max(spread, 0.01), m.unit == P2pUnit::ns};
  }
  return out;
}

}  // namespace

bool CompareReport::regression() const {
  for (const auto& r : rows)
    if (r.verdict == "REGRESSION") return true;
  return false;
}

CompareReport compare_results(const Result& base, const Result& next, double threshold,
                              std::uint64_t min_bytes) {
  const auto a = figures(base);
  const auto b = figures(next);
  CompareReport rep;
  for (const auto& [key, fa] : a) {
    const auto it = b.find(key);
    if (it == b.end()) {
      ++rep.only_in_base;
      continue;
    }
    const auto& fb_ = it->second;
    CompareRow row{key, fa.bytes, fa.value, fb_.value, 0, fa.noise + fb_.noise, "same"};
    if (fa.value > 0) row.change = fa.lower_is_better ? fa.value / fb_.value - 1 : fb_.value / fa.value - 1;
    if (std::fabs(row.change) > row.noise) row.verdict = row.change > 0 ? "better" : "worse";
    if (row.verdict == "worse" && -row.change > threshold && fa.bytes >= min_bytes)
      row.verdict = "REGRESSION";
    rep.rows.push_back(row);
  }
  for (const auto& [key, f] : b)
    if (!a.contains(key)) ++rep.only_in_next;
  if (rep.rows.empty())
    FB_USAGE_ERROR(
        fmt::format("the two results share no measurement ({} only in the first, {} only in the second): "
                    "different collectives, sizes or GPU counts?",
                    rep.only_in_base, rep.only_in_next));
  return rep;
}

std::string compare_table(const CompareReport& r, bool markdown) {
  std::string out;
  if (markdown) {
    out += "| measurement | base | new | change | noise | verdict |\n|---|---:|---:|---:|---:|---|\n";
    for (const auto& row : r.rows)
      out += fmt::format("| {} | {:.2f} | {:.2f} | {:+.1f}% | +-{:.1f}% | {} |\n", row.key, row.base,
                         row.next, row.change * 100, row.noise * 100, row.verdict);
  } else {
    out += fmt::format("# {:<70} {:>10} {:>10} {:>8} {:>8}  {}\n", "measurement (busbw GB/s; p2p GB/s or ns)",
                       "base", "new", "change", "noise", "verdict");
    for (const auto& row : r.rows)
      out += fmt::format("  {:<70} {:>10.2f} {:>10.2f} {:>7.1f}% {:>7.1f}%  {}\n", row.key, row.base,
                         row.next, row.change * 100, row.noise * 100, row.verdict);
  }
  if (r.only_in_base || r.only_in_next)
    out += fmt::format("{}{} measurement(s) only in the base, {} only in the new result\n",
                       markdown ? "" : "# ", r.only_in_base, r.only_in_next);
  return out;
}

}  // namespace fb
