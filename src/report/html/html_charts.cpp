#include "report/html/html_charts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "analyse/expect/ceilings.hpp"
#include "analyse/expect/expectations.hpp"
#include "analyse/expect/expected_figure.hpp"
#include "analyse/judge.hpp"
#include "analyse/scope/gpu_names.hpp"
#include "core/text.hpp"
#include "report/html/html_heatmap.hpp"
#include "report/svg_chart.hpp"

namespace fb {
namespace {

// Series a reader tells apart on one chart (the palette has 12 colours; past 8 they blur).
constexpr std::size_t kMaxSeries = 8;

bool is_drawn(const Run& run) {
  return run.kind == RunKind::collective && !run.points.empty() && run.gpus.size() > 1;
}

Series out_of_place(const Run& run, const std::string& name) {
  Series s;
  s.name = name;
  for (const auto& p : run.points)
    if (!p.in_place) s.points.emplace_back(static_cast<double>(p.bytes), p.busbw_gbps);
  return s;
}

std::string series_name(const Run& run, const std::string& suffix) {
  return fmt::format("{} {}{}", run.collective, run.dtype, suffix.empty() ? "" : " (" + suffix + ")");
}

// Each distinct ring ceiling of the drawn runs, drawn and named as a ceiling (the expectations are the
// series' own marks).
std::vector<ReferenceLine> ceiling_lines(const Result& r) {
  std::set<long> seen;
  std::vector<ReferenceLine> out;
  if (!r.topology) return out;
  for (const auto& run : r.runs) {
    if (!is_drawn(run)) continue;
    const double c = run_ring_ceiling(r, run).gbps;  // unknown across hosts
    if (!(c > 0) || !seen.insert(std::lround(c)).second) continue;
    out.push_back({c, fmt::format("ring SM ceiling {:.1f} GB/s", c), "ceiling"});
  }
  return out;
}

// Each out-of-place point's expectation, as every other view shows it (analyse/expect/expected_figure.hpp).
void add_expectations(Series& s, const Result& r, const Run& run) {
  for (const auto& p : run.points) {
    if (p.in_place) continue;
    const auto e = collective_expectation(r, run, p);
    s.expected.push_back(e ? e->value : 0);
    s.expected_source.push_back(e ? e->source : "");
  }
}

void mark_points(Series& s, const std::string& collective, const BusbwChartOptions& o) {
  s.marked.assign(s.points.size(), false);
  for (std::size_t i = 0; i < s.points.size(); ++i)
    for (const auto& [c, bytes] : o.marked)
      if (c == collective && static_cast<double>(bytes) == s.points[i].first) s.marked[i] = true;
}

}  // namespace

bool has_interconnect(const Result& r) {
  if (std::any_of(r.runs.begin(), r.runs.end(), [](const Run& run) { return run.gpus.size() > 1; }))
    return true;
  return std::any_of(r.p2p.begin(), r.p2p.end(),
                     [](const P2pMeasurement& m) { return m.src >= 0 && m.dst >= 0; });
}

std::string busbw_chart(const Result& r, const BusbwChartOptions& o) {
  std::vector<Series> series;
  std::map<std::string, int> colour;  // per collective, shared with its reference series
  std::size_t gpus = 0;
  for (const auto& run : r.runs) {
    if (!is_drawn(run)) continue;
    const int c = colour.emplace(run.collective, static_cast<int>(colour.size())).first->second;
    series.push_back(out_of_place(run, series_name(run, o.name)));
    series.back().color = c;
    mark_points(series.back(), run.collective, o);
    add_expectations(series.back(), r, run);
    gpus = std::max(gpus, run.gpus.size());
  }
  if (series.empty()) return "";
  if (o.reference)
    for (const auto& run : o.reference->runs) {
      if (!is_drawn(run)) continue;
      const auto it = colour.find(run.collective);
      if (it == colour.end()) continue;  // a collective this run did not measure
      series.push_back(out_of_place(run, series_name(run, o.reference_name)));
      series.back().color = it->second;
      series.back().dashed = true;
    }
  ChartSpec spec{"busbw",        fmt::format("Bus bandwidth vs message size ({} GPUs)", gpus),
                 "message size", "busbw (GB/s)",
                 true,           ceiling_lines(r),
                 "GB/s"};
  return line_chart(spec, series);
}

std::string scaling_chart(const Result& r) {
  std::map<std::string, Series> by_label;
  for (const auto& run : r.runs) {
    if (run.kind != RunKind::scale || run.points.empty()) continue;
    auto& s = by_label[run.label];
    s.name = run.label + " placement";
    s.points.emplace_back(static_cast<double>(run.gpus.size()), run.points[0].busbw_gbps);
  }
  if (by_label.empty()) return "";
  std::vector<Series> series;
  series.reserve(by_label.size());
  for (auto& [k, s] : by_label) {
    std::sort(s.points.begin(), s.points.end());
    series.push_back(s);
  }
  return line_chart({"scaling", "Bus bandwidth vs GPU count", "GPUs", "busbw (GB/s)", false, {}, "GB/s"},
                    series);
}

// Up to kMaxSeries configurations on one chart; more are split by the algorithm forced (Ring, Tree,
// ... and the protocols forced alone), each chart with NCCL's own choice dashed for reference.
std::string algos_chart(const Result& r) {
  std::map<std::string, std::vector<Series>> groups;  // forced algorithm ("" for protocols alone)
  std::vector<Series> all;
  std::optional<Series> nccl;
  std::string collective;
  for (const auto& run : r.runs) {
    if (run.kind != RunKind::algos || run.points.empty()) continue;
    collective = run.collective;
    std::string label;
    for (const auto& [k, v] : run.forced) label += (label.empty() ? "" : " ") + v;
    Series s = out_of_place(run, label.empty() ? "NCCL's choice" : label);
    s.dashed = label.empty();
    s.color = static_cast<int>(all.size());
    all.push_back(s);
    if (label.empty()) {
      nccl = s;
      continue;
    }
    const auto algo = run.forced.find("NCCL_ALGO");
    groups[algo == run.forced.end() ? "" : algo->second].push_back(s);
  }
  if (all.empty()) return "";
  const auto chart = [&](const std::string& id, const std::string& what, const std::vector<Series>& series) {
    return line_chart({id,
                       fmt::format("{}: {} vs NCCL's choice", collective, what),
                       "message size",
                       "busbw (GB/s)",
                       true,
                       {},
                       "GB/s"},
                      series);
  };
  if (all.size() <= kMaxSeries) return chart("algos", "forced algorithm/protocol", all);
  std::string html;
  for (auto& [algo, series] : groups) {
    if (nccl) series.insert(series.begin(), *nccl);
    html +=
        chart(algo.empty() ? "algos-protocols" : "algos-" + lower(algo),
              algo.empty() ? "protocols forced alone" : "NCCL_ALGO=" + algo + " with each protocol", series);
  }
  return html;
}

std::string pair_heatmap(const Result& r) {
  PairMatrix m{"pairs", "Pair bandwidth, copy engine read (GB/s)", "GB/s", {}, {}, 0, ""};
  std::set<int> gpus;
  for (const auto& p : r.p2p) {
    if (p.test != P2pTest::ce_read || p.src < 0 || p.dst < 0) continue;
    gpus.insert({p.src, p.dst});
    m.values.push_back({p.src, p.dst, p.value});
  }
  m.gpus.assign(gpus.begin(), gpus.end());
  // The scale's reference: the pair expectation (the one P2P_BELOW_EXPECTED uses), else the best
  // pair's copy-engine ceiling.
  if (const auto e = expected_for(gpu_name(r, m.gpus), 0, "pair", 0)) {
    m.reference = e->value;
    m.reference_label = "expected";
  } else if (r.topology) {
    for (const auto& p : r.topology->pairs) m.reference = std::max(m.reference, pair_ce_ceiling(p).gbps);
    m.reference_label = "CE ceiling";
  }
  return heatmap_html(m);
}

}  // namespace fb
