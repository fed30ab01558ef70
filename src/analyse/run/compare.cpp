#include "analyse/run/compare.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "core/error.hpp"
#include "core/units.hpp"

namespace fb {
namespace {

struct Figure {
  std::string group;  // the key without its size: rows sort by it, then by size
  std::uint64_t bytes = 0;
  double value = 0;
  double noise = 0;  // relative
  bool lower_is_better = false;
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
      const auto what =
          fmt::format("{} {} {}{}", run.kind, run.collective, run.dtype, run.op.empty() ? "" : " " + run.op);
      const auto how = fmt::format("{}-place {} GPUs{}{}{}", p.in_place ? "in" : "out", run.gpus.size(),
                                   run.graph_launches ? " graph" : "", forced,
                                   run.fill.empty() ? "" : " fill=" + run.fill);
      out[fmt::format("{} {} {}", what, format_bytes(p.bytes), how)] = {
          fmt::format("{} {}", what, how), p.bytes, p.busbw_gbps > 0 ? p.busbw_gbps : p.algbw_gbps,
          rel_noise(p.time_us.median_ci), false};
    }
  }
  for (const auto& m : r.p2p) {
    if (m.samples == 0) continue;
    const double spread = m.value > 0 ? (m.max - m.min) / (2 * m.value) : 0.05;
    out[fmt::format("p2p {} {}->{} {}", m.test, m.src, m.dst, format_bytes(m.bytes))] = {
        fmt::format("p2p {} {}->{}", m.test, m.src, m.dst), m.bytes, m.value, std::max(spread, 0.01),
        m.unit == P2pUnit::ns};
  }
  return out;
}

// "NCCL 2" from "2.28.3"; "" when the document does not say.
std::string library_major(const Result& r) {
  const auto& v = r.host.comm.version;
  if (v.empty()) return "";
  return fmt::format("{} {}", r.host.comm.name.empty() ? "NCCL" : r.host.comm.name, v.substr(0, v.find('.')));
}

std::string collective_set(const Result& r) {
  std::set<std::string> names;
  for (const auto& run : r.runs)
    if (!run.points.empty()) names.insert(run.collective);
  return fmt::format("{}", fmt::join(names, ", "));
}

std::string first_gpu_name(const Result& r) {
  for (const auto& g : r.gpus)
    if (!g.name.empty()) return g.name;
  return "";
}

}  // namespace

bool CompareReport::regression() const { return !regressions().empty(); }

std::vector<std::string> CompareReport::regressions() const {
  std::vector<std::string> out;
  for (const auto& r : rows)
    if (r.verdict == "REGRESSION") out.push_back(r.key);
  return out;
}

std::string CompareReport::headline() const {
  std::map<std::string, int> n;
  for (const auto& r : rows) ++n[r.verdict];
  return fmt::format("{} measurement{} compared: {} REGRESSION{}, {} worse, {} better, {} the same",
                     rows.size(), rows.size() == 1 ? "" : "s", n["REGRESSION"],
                     n["REGRESSION"] == 1 ? "" : "S", n["worse"], n["better"], n["same"]);
}

std::vector<std::string> comparability_differences(const Result& base, const Result& next) {
  std::vector<std::string> out;
  const auto differ = [&](const char* what, const std::string& a, const std::string& b) {
    if (!a.empty() && !b.empty() && a != b)
      out.push_back(fmt::format("{}: {} in the base, {} in the new result", what, a, b));
  };
  differ("GPU model", first_gpu_name(base), first_gpu_name(next));
  differ("GPU count", base.gpus.empty() ? "" : std::to_string(base.gpus.size()),
         next.gpus.empty() ? "" : std::to_string(next.gpus.size()));
  differ("library major version", library_major(base), library_major(next));
  differ("collectives", collective_set(base), collective_set(next));
  return out;
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
  std::stable_sort(rep.rows.begin(), rep.rows.end(), [&a](const CompareRow& x, const CompareRow& y) {
    const auto& fx = a.at(x.key);
    const auto& fy = a.at(y.key);
    return std::tie(fx.group, fx.bytes) < std::tie(fy.group, fy.bytes);
  });
  if (rep.rows.empty())
    FB_USAGE_ERROR(
        fmt::format("the two results share no measurement ({} only in the first, {} only in the second): "
                    "different collectives, sizes or GPU counts?",
                    rep.only_in_base, rep.only_in_next));
  return rep;
}

std::string compare_table(const CompareReport& r, bool markdown) {
  std::string out = markdown ? fmt::format("**{}**\n\n", r.headline()) : fmt::format("# {}\n", r.headline());
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
