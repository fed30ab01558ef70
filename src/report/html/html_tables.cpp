#include "report/html/html_tables.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "analyse/verdicts.hpp"
#include "core/units.hpp"
#include "report/svg_chart.hpp"

namespace fb {
namespace {

std::string left_out(std::size_t total) {
  return total > kMaxTableRows
             ? fmt::format(
                   "<p class=\"left-out\">{} more rows not shown: the JSON document has them all.</p>\n",
                   total - kMaxTableRows)
             : "";
}

// A run's forced NCCL settings ("Ring LL"), or NCCL's choice when none were forced.
std::string forced_label(const Run& run) {
  std::string label;
  for (const auto& [k, v] : run.forced) label += (label.empty() ? "" : " ") + v;
  return label.empty() ? "NCCL's choice" : label;
}

double busbw_at(const Run& run, std::size_t i) {
  return i < run.points.size() ? run.points[i].busbw_gbps : 0;
}

// One size: every run's busbw, shaded against the best at that size, then what NCCL chose.
std::string algo_grid_row(const std::vector<const Run*>& runs, std::size_t i) {
  double best = 0;
  for (const auto* run : runs) best = std::max(best, busbw_at(*run, i));
  std::string html = fmt::format("<tr><td>{}</td>", format_bytes(runs[0]->points[i].bytes));
  for (const auto* run : runs) {
    const double v = busbw_at(*run, i);
    const int shade = best > 0 ? static_cast<int>(255 - 120 * v / best) : 255;
    html += fmt::format("<td style=\"background:rgb({},255,{})\">{:.1f}</td>", shade, shade, v);
  }
  const auto& p0 = runs[0]->points[i];
  return html + fmt::format("<td>{}</td></tr>\n",
                            p0.nccl_algo.empty() ? "?" : escape_html(p0.nccl_algo + "/" + p0.nccl_proto));
}

}  // namespace

std::string headline_table(const Result& r) {
  std::string html;
  for (const auto& run : r.runs) {
    if (run.kind != RunKind::collective || run.points.empty()) continue;
    const auto& p = *std::max_element(run.points.begin(), run.points.end(),
                                      [](const Point& a, const Point& b) { return a.bytes < b.bytes; });
    const double ceiling = r.topology ? ring_sm_ceiling(*r.topology, run.gpus) : 0;
    html += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{:.1f}</td><td>{}</td><td>{}</td></tr>\n",
                        escape_html(run.collective), run.gpus.size(), format_bytes(p.bytes), p.busbw_gbps,
                        ceiling > 0 ? fmt::format("{:.1f}", ceiling) : "-",
                        ceiling > 0 ? fmt::format("{:.0f}%", p.busbw_gbps / ceiling * 100) : "-");
  }
  if (html.empty()) return "";
  return "<table class=\"headline\"><tr><th>collective</th><th>GPUs</th><th>largest size</th><th>busbw "
         "(GB/s)</th><th>ring SM ceiling (GB/s)</th><th>of ceiling</th></tr>\n" +
         html + "</table>\n";
}

std::string findings_html(const Result& r) {
  if (r.findings.empty()) return "<p>No findings.</p>\n";
  std::string html;
  for (std::size_t i = 0; i < r.findings.size() && i < kMaxTableRows; ++i) {
    const auto& f = r.findings[i];
    html += fmt::format(
        "<div class=\"finding sev-{0}\" data-severity=\"{0}\"><b>{0}: "
        "{1}</b><div>{2}</div><div><i>expected:</i> "
        "{3}</div><div><i>fix:</i> {4}</div></div>\n",
        f.severity, escape_html(f.code), escape_html(f.evidence), escape_html(f.expected),
        escape_html(f.hint));
  }
  return html + left_out(r.findings.size());
}

std::string topology_table(const Result& r) {
  if (!r.topology || r.topology->pairs.empty()) return "";
  std::string html =
      "<table class=\"pairs\"><tr><th>pair</th><th>connection</th><th>wire (GB/s)</th><th>SM "
      "ceiling</th><th>CE "
      "ceiling</th><th>limited by</th></tr>\n";
  const auto& pairs = r.topology->pairs;
  for (std::size_t i = 0; i < pairs.size() && i < kMaxTableRows; ++i) {
    const auto& p = pairs[i];
    html += fmt::format(
        "<tr><td>GPU{}-GPU{}</td><td>{}</td><td>{:.1f}</td><td>{:.1f}</td><td>{:.1f}</td><td>{}</td></tr>\n",
        p.a, p.b, p.connection, p.wire_gbps, p.sm_ceiling_gbps, p.ce_ceiling_gbps, escape_html(p.limit));
  }
  return html + "</table>\n" + left_out(pairs.size());
}

std::string algos_table(const Result& r) {
  std::vector<const Run*> runs;
  for (const auto& run : r.runs)
    if (run.kind == RunKind::algos && !run.points.empty()) runs.push_back(&run);
  if (runs.empty()) return "";
  std::string html = "<div class=\"wide\"><table class=\"algos\"><tr><th>size</th>";
  for (const auto* run : runs) html += fmt::format("<th>{}</th>", escape_html(forced_label(*run)));
  html += "<th>NCCL chose</th></tr>\n";
  for (std::size_t i = 0; i < runs[0]->points.size() && i < kMaxTableRows; ++i)
    html += algo_grid_row(runs, i);
  return html + "</table></div>\n";
}

std::string environment_html(const Result& r) {
  std::string html =
      fmt::format("<p class=\"meta\">fabricbench {} ({}) · {} to {} · status {}</p>\n<table class=\"env\">",
                  escape_html(r.tool.version), escape_html(r.tool.git), escape_html(r.started),
                  escape_html(r.finished), r.status);
  std::size_t n = 0;
  for (const auto& [k, v] : r.env)
    if (n++ < kMaxTableRows)
      html += fmt::format("<tr><td>{}</td><td>{}</td></tr>", escape_html(k), escape_html(v));
  html += "</table>\n" + left_out(r.env.size());
  return html + fmt::format("<p>command: <code>{}</code></p>\n",
                            escape_html(fmt::format("{}", fmt::join(r.command, " "))));
}

}  // namespace fb
