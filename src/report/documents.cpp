#include "report/documents.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "analyse/expectations.hpp"
#include "analyse/verdicts.hpp"
#include "report/csv_reporter.hpp"
#include "report/svg_chart.hpp"

namespace fb {
namespace {

struct Headline {
  std::string collective;
  std::uint64_t bytes = 0;
  double busbw = 0;
  double ceiling = 0;
};

// The largest size of every collective run (the figure users quote), with its ring ceiling.
std::vector<Headline> headlines(const Result& r) {
  std::vector<Headline> out;
  for (const auto& run : r.runs) {
    if (run.kind != RunKind::collective || run.points.empty()) continue;
    const auto& p = *std::max_element(run.points.begin(), run.points.end(),
                                      [](const Point& a, const Point& b) { return a.bytes < b.bytes; });
    out.push_back(
        {run.collective, p.bytes, p.busbw_gbps, r.topology ? ring_sm_ceiling(*r.topology, run.gpus) : 0});
  }
  return out;
}

std::string severity_color(Severity s) {
  return s == Severity::error ? "#c0392b" : s == Severity::warning ? "#d68910" : "#2e86c1";
}

std::string collective_charts(const Result& r) {
  std::string html;
  for (const auto& run : r.runs) {
    if (run.kind != RunKind::collective || run.points.empty()) continue;
    Series s{run.collective + " " + run.dtype, {}};
    for (const auto& p : run.points)
      if (!p.in_place) s.points.emplace_back(static_cast<double>(p.bytes), p.busbw_gbps);
    const double ceiling = r.topology ? ring_sm_ceiling(*r.topology, run.gpus) : 0;
    html += line_chart(
        {"busbw-" + run.collective,
         fmt::format("{} busbw vs size ({} GPUs)", run.collective, run.gpus.size()), "size", "busbw (GB/s)",
         true, ceiling, ceiling > 0 ? fmt::format("SM ceiling {:.0f} GB/s", ceiling) : ""},
        {s});
  }
  return html;
}

std::string pair_heatmap(const Result& r) {
  std::set<int> gpus;
  for (const auto& m : r.p2p)
    if (m.src >= 0 && m.dst >= 0) gpus.insert({m.src, m.dst});
  if (gpus.size() < 2) return "";
  std::vector<int> ids(gpus.begin(), gpus.end());
  std::vector<std::string> labels;
  labels.reserve(ids.size());
  for (int g : ids) labels.push_back(fmt::format("GPU{}", g));
  std::vector<std::vector<double>> v(ids.size(), std::vector<double>(ids.size(), 0));
  for (const auto& m : r.p2p) {
    if (m.test != P2pTest::ce_read || m.src < 0 || m.dst < 0) continue;
    const auto a = std::find(ids.begin(), ids.end(), m.src) - ids.begin();
    const auto b = std::find(ids.begin(), ids.end(), m.dst) - ids.begin();
    v[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)] = m.value;
  }
  return heatmap("pairs", "Pair bandwidth, copy engine (row = source, column = destination)", labels, v,
                 "GB/s");
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
  for (auto& [k, s] : by_label) series.push_back(s);
  return line_chart({"scaling", "busbw vs GPU count", "GPUs", "busbw (GB/s)", false, 0, ""}, series);
}

// A run's forced NCCL settings ("Ring LL"), or NCCL's choice when none were forced.
std::string forced_label(const Run& run) {
  std::string label;
  for (const auto& [k, v] : run.forced) label += (label.empty() ? "" : " ") + v;
  return label.empty() ? "NCCL's choice" : label;
}

std::string algo_grid_header(const std::vector<const Run*>& runs) {
  std::string html =
      "<h2>Algorithms and protocols (busbw GB/s)</h2>\n<table class=\"algos\"><tr><th>size (B)</th>";
  for (const auto* run : runs) html += fmt::format("<th>{}</th>", escape_html(forced_label(*run)));
  return html + "<th>NCCL chose</th></tr>\n";
}

double busbw_at(const Run& run, std::size_t i) {
  return i < run.points.size() ? run.points[i].busbw_gbps : 0;
}

// One size: every run's busbw, shaded against the best at that size, then what NCCL chose.
std::string algo_grid_row(const std::vector<const Run*>& runs, std::size_t i) {
  double best = 0;
  for (const auto* run : runs) best = std::max(best, busbw_at(*run, i));
  std::string html = fmt::format("<tr><td>{}</td>", runs[0]->points[i].bytes);
  for (const auto* run : runs) {
    const double v = busbw_at(*run, i);
    const int shade = best > 0 ? static_cast<int>(255 - 120 * v / best) : 255;
    html += fmt::format("<td style=\"background:rgb({},255,{})\">{:.1f}</td>", shade, shade, v);
  }
  const auto& p0 = runs[0]->points[i];
  return html +
         fmt::format("<td>{}</td></tr>\n", p0.nccl_algo.empty() ? "?" : p0.nccl_algo + "/" + p0.nccl_proto);
}

std::string algo_grid(const Result& r) {
  std::vector<const Run*> runs;
  for (const auto& run : r.runs)
    if (run.kind == RunKind::algos && !run.points.empty()) runs.push_back(&run);
  if (runs.empty()) return "";
  std::string html = algo_grid_header(runs);
  for (std::size_t i = 0; i < runs[0]->points.size(); ++i) html += algo_grid_row(runs, i);
  return html + "</table>\n";
}

}  // namespace

std::string html_report(const Result& r) {
  std::string html = R"(<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>fabricbench report</title>
<style>body{font-family:sans-serif;margin:24px;max-width:1100px}table{border-collapse:collapse;margin:8px 0}
td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}th{background:#f4f4f4}.finding{margin:6px 0;padding:6px 10px;
border-left:4px solid}.charts svg{margin:8px 8px 8px 0;border:1px solid #eee}</style></head><body>
)";
  html += fmt::format(
      "<h1>fabricbench report</h1>\n<p>{} &middot; {} {} &middot; driver {} &middot; runtime {} &middot; "
      "fabricbench {} ({}) &middot; {} to {} &middot; status {}</p>\n",
      escape_html(r.host.hostname), escape_html(r.host.comm.name), escape_html(r.host.comm.version),
      escape_html(r.host.driver), escape_html(r.host.runtime), escape_html(r.tool.version),
      escape_html(r.tool.git), escape_html(r.started), escape_html(r.finished), r.status);
  if (!r.failure.empty()) html += fmt::format("<p><b>Failed:</b> {}</p>\n", escape_html(r.failure));
  html +=
      "<h2>Headline</h2>\n<table><tr><th>collective</th><th>size (B)</th><th>busbw (GB/s)</th><th>ring SM "
      "ceiling (GB/s)</th><th>of ceiling</th></tr>\n";
  for (const auto& h : headlines(r))
    html +=
        fmt::format("<tr><td>{}</td><td>{}</td><td>{:.1f}</td><td>{}</td><td>{}</td></tr>\n", h.collective,
                    h.bytes, h.busbw, h.ceiling > 0 ? fmt::format("{:.1f}", h.ceiling) : "-",
                    h.ceiling > 0 ? fmt::format("{:.0f}%", h.busbw / h.ceiling * 100) : "-");
  html += "</table>\n<h2>Findings</h2>\n";
  if (r.findings.empty()) html += "<p>none</p>\n";
  for (const auto& f : r.findings)
    html += fmt::format(
        "<div class=\"finding\" style=\"border-color:{}\"><b>[{}] {}</b>: {}<br>expected: {}<br>hint: "
        "{}</div>\n",
        severity_color(f.severity), f.severity, escape_html(f.code), escape_html(f.evidence),
        escape_html(f.expected), escape_html(f.hint));
  html += "<h2>Charts</h2>\n<div class=\"charts\">\n" + collective_charts(r) + pair_heatmap(r) +
          scaling_chart(r) + "</div>\n" + algo_grid(r);
  if (r.topology) {
    html +=
        "<h2>Topology</h2>\n<table><tr><th>pair</th><th>connection</th><th>wire peak (GB/s)</th><th>limited "
        "by</th></tr>\n";
    for (const auto& p : r.topology->pairs)
      html += fmt::format("<tr><td>GPU{}-GPU{}</td><td>{}</td><td>{:.1f}</td><td>{}</td></tr>\n", p.a, p.b,
                          p.connection, p.wire_gbps, escape_html(p.limit));
    html += "</table>\n";
  }
  html += "<h2>Environment</h2>\n<table>";
  for (const auto& [k, v] : r.env)
    html += fmt::format("<tr><td>{}</td><td>{}</td></tr>", escape_html(k), escape_html(v));
  html += fmt::format("</table>\n<p>command: <code>{}</code></p>\n</body></html>\n",
                      escape_html(fmt::format("{}", fmt::join(r.command, " "))));
  return html;
}

std::string markdown_summary(const Result& r) {
  std::string md =
      fmt::format("# fabricbench summary\n\n{} · {} {} · {} GPUs · status {}\n\n", r.host.hostname,
                  r.host.comm.name, r.host.comm.version, r.gpus.size(), r.status);
  md +=
      "| figure | GB/s | path ceiling (GB/s) | of ceiling | expected (GB/s) | of expected "
      "|\n|---|---:|---:|---:|---:|---|\n";
  for (const auto& h : headline_figures(r))
    md +=
        fmt::format("| {} | {:.1f} | {} | {} | {} | {} |\n", h.figure, h.measured_gbps,
                    h.ceiling_gbps > 0 ? fmt::format("{:.1f}", h.ceiling_gbps) : "-",
                    h.ceiling_gbps > 0 ? fmt::format("{:.0f}%", h.measured_gbps / h.ceiling_gbps * 100) : "-",
                    h.expected_gbps > 0 ? fmt::format("{:.1f}", h.expected_gbps) : "-", h.percent_text());
  md += "\n## Findings\n\n";
  if (r.findings.empty()) md += "none\n";
  for (const auto& f : r.findings)
    md += fmt::format("- **[{}] {}**: {}  \n  expected: {}  \n  hint: {}\n", f.severity, f.code, f.evidence,
                      f.expected, f.hint);
  return md;
}

std::string points_csv(const Result& r) {
  std::ostringstream out;
  CsvReporter csv(out);
  csv.begin(r);
  for (std::size_t i = 0; i < r.runs.size(); ++i)
    for (std::size_t p = 0; p < r.runs[i].points.size(); ++p) csv.point(r, i, p);
  return out.str();
}

}  // namespace fb
