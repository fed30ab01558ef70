#include "report/html/html_tables.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>

#include "analyse/expect/ceilings.hpp"
#include "analyse/expect/expectations.hpp"
#include "analyse/judge.hpp"
#include "analyse/verdict/headline_figures.hpp"
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

// "GPU0-GPU1", or for many pairs their count and the GPUs they join.
std::string pair_list(const std::vector<const TopoPair*>& pairs) {
  constexpr std::size_t kNamed = 4;
  std::vector<std::string> names;
  std::set<int> gpus;
  for (const auto* p : pairs) {
    if (names.size() < kNamed) names.push_back(fmt::format("GPU{}-GPU{}", p->a, p->b));
    gpus.insert({p->a, p->b});
  }
  if (pairs.size() <= kNamed) return unbroken_words(fmt::format("{}", fmt::join(names, ", ")));
  return fmt::format("{} pairs among GPU {}", pairs.size(), fmt::join(gpus, ", "));
}

}  // namespace

namespace {

std::string headline_row(const HeadlineFigure& h) {
  const double ref = h.reference();
  const auto ceiling = h.ceiling > 0           ? fmt::format("{:.1f}", h.ceiling)
                       : !h.not_a_ring.empty() ? h.not_a_ring + ": not a ring"
                                               : std::string("-");
  return fmt::format(
      "<tr data-collective=\"{0}\" data-busbw=\"{3:.1f}\" data-expected=\"{4}\" "
      "data-floor=\"{5}\"><td>{0}</td>"
      "<td>{1}</td><td>{2}</td><td>{3:.1f}</td><td>{6}</td><td>{7}</td><td class=\"source\">{8}</td>"
      "<td>{9}</td><td>{10}</td></tr>\n",
      escape_html(h.collective), h.gpus, format_bytes(h.bytes), h.measured,
      ref > 0 ? fmt::format("{:.1f}", ref) : "", ref > 0 ? fmt::format("{:.1f}", ref * h.floor_share) : "",
      h.expected > 0 ? fmt::format("{:.1f}", h.expected) : "-", escape_html(h.percent_text()),
      unbroken_words(h.expected > 0 ? h.expected_source
                     : h.reach > 0  ? h.reach_source
                                    : "-"),
      ceiling, h.ceiling > 0 ? fmt::format("{:.0f}%", h.measured / h.ceiling * 100) : "-");
}

}  // namespace

// Each collective's largest size (and a size below its expectation's floor, before it): busbw, what it
// is held against with the source (analyse/expect/expected_figure.hpp: the one every view and the findings
// use) in the headline's words (analyse/verdict/headline_words.hpp), and the ring's SM ceiling, as a ceiling.
std::string headline_table(const Result& r) {
  auto figures = headline_figures(r);
  for (const auto& run : r.runs)  // one GPU: its figure shown, nothing to hold it against
    if (run.kind == RunKind::collective && run.gpus.size() == 1 && !run.points.empty()) {
      const auto& p = *std::max_element(run.points.begin(), run.points.end(),
                                        [](const Point& a, const Point& b) { return a.bytes < b.bytes; });
      HeadlineFigure h;
      h.measured = p.busbw_gbps;
      h.label = "one GPU: no interconnect";
      h.collective = run.collective;
      h.gpus = 1;
      h.bytes = p.bytes;
      figures.push_back(std::move(h));
    }
  std::string html;
  for (const auto& h : figures)
    if (!h.collective.empty()) html += headline_row(h);
  if (html.empty()) return "";
  return "<div class=\"wide\"><table class=\"headline\"><tr><th>collective</th><th>GPUs</th><th>size"
         "</th><th>busbw (GB/s)</th><th>expected (GB/s)</th><th>of expected</th><th>source"
         "</th><th>ring SM ceiling (GB/s)</th><th>of ceiling</th></tr>\n" +
         html + "</table></div>\n";
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
        f.severity, escape_html(f.code), escape_html(with_human_sizes(f.evidence)), escape_html(f.expected),
        escape_html(f.hint));
  }
  return html + left_out(r.findings.size());
}

// Pairs that read alike share one row ("28 pairs: every pair of GPU0-GPU7"); the ceilings are the ones
// the verdicts use (analyse/expect/ceilings.hpp: xGMI and PCIe from their shares of the wire).
std::string topology_table(const Result& r) {
  if (!r.topology || r.topology->pairs.empty()) return "";
  std::map<std::string, std::vector<const TopoPair*>> alike;  // the row's cells -> its pairs
  std::vector<std::string> order;
  for (const auto& p : r.topology->pairs) {
    const auto sm = pair_sm_ceiling(p), ce = pair_ce_ceiling(p);
    const auto cells =
        fmt::format("<td>{}</td><td>{:.1f}</td><td>{}</td><td>{}</td><td>{}</td>", p.connection, p.wire_gbps,
                    sm.known() ? fmt::format("{:.1f}", sm.gbps) : "-",
                    ce.known() ? fmt::format("{:.1f}", ce.gbps) : "-", escape_html(p.limit));
    auto& pairs = alike[cells];
    if (pairs.empty()) order.push_back(cells);
    pairs.push_back(&p);
  }
  std::string html =
      "<div class=\"wide\"><table class=\"pairs\"><tr><th>pairs</th><th>connection</th><th>wire "
      "(GB/s)</th><th>SM ceiling (GB/s)</th><th>CE ceiling (GB/s)</th><th>limited by</th></tr>\n";
  for (std::size_t i = 0; i < order.size() && i < kMaxTableRows; ++i)
    html += fmt::format("<tr><td class=\"pair-list\">{}</td>{}</tr>\n", pair_list(alike[order[i]]), order[i]);
  return html + "</table></div>\n" + left_out(order.size());
}

std::string saved_findings_html(const SavedFindings& saved) {
  std::string html = fmt::format(
      "<p class=\"note\">Written by {} when the file was saved; the findings above are this build's "
      "(docs/verdicts.md). Kept here for reference.</p>\n",
      escape_html(rules_words(saved.rules_version)));
  for (std::size_t i = 0; i < saved.findings.size() && i < kMaxTableRows; ++i) {
    const auto& f = saved.findings[i];
    html += fmt::format(
        "<div class=\"saved-finding sev-{0}\" data-severity=\"{0}\"><b>{0}: {1}</b><div>{2}</div></div>\n",
        f.severity, escape_html(f.code), escape_html(with_human_sizes(f.evidence)));
  }
  return html + left_out(saved.findings.size());
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
