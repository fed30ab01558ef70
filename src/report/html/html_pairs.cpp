#include "report/html/html_pairs.hpp"

#include <fmt/format.h>

#include <set>

#include "analyse/run/p2p_analysis.hpp"
#include "report/html/html_heatmap.hpp"
#include "report/html/html_tables.hpp"
#include "report/svg_chart.hpp"

namespace fb {
namespace {

// The heatmap writes each cell's number up to this many GPUs (html_heatmap.cpp: cells of 28 px and more).
constexpr std::size_t kHeatmapNumbersUpTo = 16;

bool in_heatmap(const P2pMeasurement& m, std::size_t gpus) {
  return m.test == P2pTest::ce_read && gpus <= kHeatmapNumbersUpTo;
}

std::string row(const P2pMeasurement& m) {
  const auto& spec = p2p_test_spec(m.test);
  const bool ns = m.unit == P2pUnit::ns;
  const std::string unit = ns ? "ns" : "GB/s";
  return fmt::format(
      "<tr data-test=\"{0}\" data-value=\"{1:.1f}\"><td>{0}</td><td class=\"source\">{2}</td><td>{3}</td>"
      "<td>{1:.1f} {4}</td><td>{5}</td><td>{6}</td><td>{7}</td></tr>\n",
      m.test, m.value, escape_html(std::string(spec.title)), unbroken_words(p2p_where(m)), unit,
      m.ceiling_gbps > 0 && !ns ? fmt::format("{:.1f} GB/s", m.ceiling_gbps) : "-",
      m.ceiling_gbps > 0 && !ns ? fmt::format("{:.0f}%", m.value / m.ceiling_gbps * 100) : "-",
      m.wrong < 0 ? "not checked" : fmt::format("{}", m.wrong));
}

}  // namespace

std::string pair_figures_table(const Result& r) {
  std::set<int> gpus;
  for (const auto& m : r.p2p)
    if (m.src >= 0 && m.dst >= 0 && m.src != m.dst) gpus.insert({m.src, m.dst});
  std::string rows;
  std::size_t n = 0;
  for (const auto& m : r.p2p) {
    if (m.src < 0 || m.dst < 0 || m.src == m.dst || m.samples == 0 || in_heatmap(m, gpus.size())) continue;
    if (n++ < kMaxTableRows) rows += row(m);
  }
  if (rows.empty()) return "";
  return "<div class=\"wide\"><table class=\"pair-figures\"><tr><th>test</th><th>what</th><th>pair</th>"
         "<th>measured</th><th>path ceiling</th><th>of ceiling</th><th>wrong words</th></tr>\n" +
         rows + "</table></div>\n" +
         (n > kMaxTableRows ? fmt::format("<p class=\"left-out\">{} more rows not shown: the JSON document "
                                          "has them all.</p>\n",
                                          n - kMaxTableRows)
                            : "");
}

}  // namespace fb
