#include <fmt/format.h>

#include "report/html/html_banner.hpp"
#include "report/html/html_charts.hpp"
#include "report/html/html_page.hpp"
#include "report/html/html_report.hpp"
#include "report/svg_chart.hpp"

namespace fb {
namespace {

// compare's keys start "collective <name> ..." (analyse/run/compare.cpp); the chart marks those points.
std::vector<std::pair<std::string, std::uint64_t>> regressed_points(const CompareReport& report) {
  std::vector<std::pair<std::string, std::uint64_t>> out;
  for (const auto& row : report.rows) {
    if (row.verdict != "REGRESSION" || row.key.rfind("collective ", 0) != 0) continue;
    if (row.key.find(" out-place ") == std::string::npos) continue;  // the chart draws out-of-place
    const auto start = std::string("collective ").size();
    out.emplace_back(row.key.substr(start, row.key.find(' ', start) - start), row.bytes);
  }
  return out;
}

std::string rows_table(const CompareReport& report) {
  std::string html =
      "<div class=\"wide\"><table "
      "class=\"compare\"><tr><th>measurement</th><th>base</th><th>new</th><th>change</th>"
      "<th>noise</th><th>verdict</th></tr>\n";
  for (const auto& row : report.rows)
    html += fmt::format(
        "<tr{}><td "
        "style=\"text-align:left\">{}</td><td>{:.2f}</td><td>{:.2f}</td><td>{:+.1f}%</td><td>&plusmn;{:.1f}%"
        "</td><td>{}</td></tr>\n",
        row.verdict == "REGRESSION" ? " class=\"regression\"" : "", escape_html(row.key), row.base, row.next,
        row.change * 100, row.noise * 100, escape_html(row.verdict));
  return html + "</table></div>\n";
}

std::string verdict_banner(const Result& base, const Result& next, const CompareReport& report,
                           double threshold) {
  const bool bad = report.regression();
  const auto regressions = report.regressions().size();
  std::string named;  // the regressions themselves, up to kNamed of them
  constexpr std::size_t kNamed = 8;
  for (std::size_t i = 0; i < regressions && i < kNamed; ++i)
    named += fmt::format("<li class=\"regression-row\">{}</li>", escape_html(report.regressions()[i]));
  if (regressions > kNamed) named += fmt::format("<li>and {} more below</li>", regressions - kNamed);
  if (!named.empty()) named = "<ul class=\"regressions\">" + named + "</ul>\n";
  return fmt::format(
      "<section class=\"banner outcome-{}\" data-outcome=\"{}\">\n<h1>{}</h1>\n<p class=\"machine\">base: "
      "{}</p>\n<p "
      "class=\"machine\">new: {}</p>\n<p>{}; {} only in base, {} only in new. A drop beyond {:.0f}% and both "
      "runs' noise is a regression.</p>\n{}</section>\n",
      bad ? "errors" : "healthy", bad ? "regression" : "no-regression",
      bad ? fmt::format("{} regression{}", regressions, regressions == 1 ? "" : "s") : "No regression",
      escape_html(machine_line(base) + " · " + base.started),
      escape_html(machine_line(next) + " · " + next.started), escape_html(report.headline()),
      report.only_in_base, report.only_in_next, threshold * 100, named);
}

}  // namespace

std::string compare_html(const Result& base, const Result& next, const CompareReport& report,
                         double threshold) {
  BusbwChartOptions o;
  o.reference = &base;
  o.name = "new";
  o.reference_name = "base";
  o.marked = regressed_points(report);
  std::string charts = busbw_chart(next, o);
  if (!charts.empty())
    charts += "<p class=\"note\">Solid: the new run; dashed: the base run; red rings: regressions.</p>\n";
  std::string body = verdict_banner(base, next, report, threshold);
  body += html_section("busbw", "Collectives: bus bandwidth", charts);
  body += html_section("pairs-base", "GPU pairs, base", pair_heatmap(base));
  body += html_section("pairs-new", "GPU pairs, new", pair_heatmap(next));
  body += html_section("rows", "Every measurement", rows_table(report));
  return html_page("fabricbench compare", body);
}

}  // namespace fb
