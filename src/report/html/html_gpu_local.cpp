#include "report/html/html_gpu_local.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <vector>

#include "analyse/expect/expectations.hpp"
#include "analyse/host/host_checks.hpp"
#include "analyse/scope/host_scope.hpp"
#include "analyse/verdict/headline_figures.hpp"
#include "report/svg_chart.hpp"

namespace fb {
namespace {

constexpr double kChartWidth = 760;
constexpr double kLabelWidth = 150;
constexpr double kValueWidth = 200;
constexpr double kRowHeight = 26;
constexpr double kTop = 48;         // below the title and the axis labels
constexpr double kMaxShare = 1.25;  // the axis ends at 125% of expected

std::vector<HeadlineFigure> own_figures(const Result& r) {
  std::vector<HeadlineFigure> out;
  for (auto& h : headline_figures(r))
    if (h.of_one_gpu) out.push_back(std::move(h));
  return out;
}

// Higher is better for bandwidth, lower for latency: the share a bar shows is of "as good as expected".
double goodness(const HeadlineFigure& h) {
  if (h.expected <= 0 || h.measured <= 0) return 0;
  return h.unit == "ns" ? h.expected / h.measured : h.measured / h.expected;
}

std::string bar(const HeadlineFigure& h, std::size_t row, double plot_width) {
  const double y = kTop + static_cast<double>(row) * kRowHeight;
  const double share = std::min(goodness(h), kMaxShare);
  const bool low = goodness(h) < 0.9;
  return fmt::format(
      "<g class=\"bar\" data-figure=\"{0}\" data-measured=\"{1:.1f}\" data-expected=\"{2:.1f}\">"
      "<text x=\"0\" y=\"{3}\">{0}</text><rect x=\"{4}\" y=\"{5}\" width=\"{6:.1f}\" height=\"16\" "
      "fill=\"{7}\"><title>{0}: {1:.1f} {8}, expected {2:.1f} {8} ({9})</title></rect>"
      "<text x=\"{10}\" y=\"{3}\">{1:.1f} of {2:.1f} {8} ({11:.0f}%)</text></g>\n",
      escape_html(h.figure), h.measured, h.expected, y + 13, kLabelWidth, y, share / kMaxShare * plot_width,
      low ? "#c0392b" : "#2e7d32", h.unit, escape_html(h.expected_source), kLabelWidth + plot_width + 8,
      h.measured / h.expected * 100);
}

// Every figure that has an expectation, as a bar of how close it came (100% = as expected).
std::string chart(const std::vector<HeadlineFigure>& figures) {
  std::vector<const HeadlineFigure*> shown;
  for (const auto& h : figures)
    if (h.expected > 0) shown.push_back(&h);
  if (shown.empty()) return "";
  const double plot = kChartWidth - kLabelWidth - kValueWidth;
  const double height = kTop + static_cast<double>(shown.size()) * kRowHeight + 10;
  std::string svg = fmt::format(
      "<svg class=\"chart\" data-chart=\"gpu-local\" viewBox=\"0 0 {0} {1}\" width=\"{0}\" height=\"{1}\" "
      "xmlns=\"http://www.w3.org/2000/svg\" font-family=\"sans-serif\" font-size=\"12\" role=\"img\">"
      "<text x=\"0\" y=\"18\" font-size=\"15\" font-weight=\"bold\">Each figure against its expected value "
      "(latency: expected / measured)</text>\n",
      kChartWidth, height);
  for (const double share : {0.9, 1.0}) {
    const double x = kLabelWidth + share / kMaxShare * plot;
    svg += fmt::format(
        "<line class=\"{}\" x1=\"{:.1f}\" y1=\"{}\" x2=\"{:.1f}\" y2=\"{}\" stroke=\"#555\"{}/>"
        "<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\" font-size=\"11\">{:.0f}%</text>\n",
        share == 1.0 ? "expected" : "floor", x, kTop - 4, x, height - 6,
        share == 1.0 ? "" : " stroke-dasharray=\"4 3\"", x, kTop - 6, share * 100);
  }
  for (std::size_t i = 0; i < shown.size(); ++i) svg += bar(*shown[i], i, plot);
  return svg +
         "</svg>\n<p class=\"note\">Dashed: the expected value less the 10% a typical figure may fall "
         "short (docs/verdicts.md).</p>\n";
}

std::string figures_table(const std::vector<HeadlineFigure>& figures) {
  std::string html =
      "<table class=\"gpu-local\"><tr><th>figure</th><th>measured</th><th>expected</th><th>of "
      "expected</th><th>link ceiling</th><th>of ceiling</th></tr>\n";
  for (const auto& h : figures)
    html += fmt::format(
        "<tr><td>{}</td><td>{:.1f} {}</td><td title=\"{}\">{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
        escape_html(h.figure), h.measured, h.unit, escape_html(h.expected_source),
        h.expected > 0 ? fmt::format("{:.1f} {}", h.expected, h.unit) : "-",
        h.expected > 0 ? escape_html(h.percent_text()) : "no expectation",
        h.ceiling > 0 ? fmt::format("{:.1f} {}", h.ceiling, h.unit) : "-",
        h.ceiling > 0 ? fmt::format("{:.0f}%", h.measured / h.ceiling * 100) : "-");
  return html + "</table>\n";
}

std::string fact_text(const HostFact& f) { return f.known() ? f.value : (f.note.empty() ? "?" : f.note); }

std::string clocks_text(const GpuHostFacts& g) {
  if (!g.clocks_event_reasons.known()) return fact_text(g.clocks_event_reasons);
  const auto names = clock_reason_names(number_or_zero(g.clocks_event_reasons, 16));
  return names.empty() ? "nothing" : fmt::format("{}", fmt::join(names, ", "));
}

// "1980 of 1980 MHz": what the SM clock runs to under load (the applications clock) of its maximum.
std::string sm_clock_text(const GpuHostFacts& g) {
  if (!g.sm_clock_max_mhz.known()) return fact_text(g.sm_clock_max_mhz);
  if (!g.sm_clock_target_mhz.known()) return fmt::format("max {} MHz", g.sm_clock_max_mhz.value);
  return fmt::format("{} of {} MHz", g.sm_clock_target_mhz.value, g.sm_clock_max_mhz.value);
}

std::string pcie_text(const TopoGpu& g) {
  if (g.pcie.gen <= 0) return "?";
  const bool at_max = g.pcie.gen >= g.pcie.max_gen && g.pcie.width >= g.pcie.max_width;
  return at_max ? fmt::format("Gen{} x{}, its maximum", g.pcie.gen, g.pcie.width)
                : fmt::format("Gen{} x{} of Gen{} x{}", g.pcie.gen, g.pcie.width, g.pcie.max_gen,
                              g.pcie.max_width);
}

// Per GPU of the run: what the host stage read (NVML, sysfs, the kernel log).
std::string health_table(const Result& r) {
  if (!r.topology) return "";
  const auto scope = host_scope(r);
  std::string rows;
  for (const auto& bus : scope.bus_ids) {
    const auto* gpu = r.topology->find_gpu_by_bus(bus);
    const auto* facts = gpu_facts(scope, bus);
    rows += fmt::format("<tr><td title=\"{}\">{}</td><td>{}</td>", escape_html(bus),
                        gpu != nullptr ? fmt::format("GPU{}", gpu->index) : escape_html(bus),
                        gpu != nullptr ? escape_html(pcie_text(*gpu)) : "?");
    if (facts == nullptr) {
      rows += "<td colspan=\"5\">not read</td></tr>\n";
      continue;
    }
    rows += fmt::format("<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                        escape_html(sm_clock_text(*facts)), escape_html(clocks_text(*facts)),
                        escape_html(fact_text(facts->ecc_uncorrected_volatile)),
                        escape_html(fact_text(facts->remapped_rows_pending) + " / " +
                                    fact_text(facts->remapped_rows_failure)),
                        escape_html(fact_text(facts->persistence_mode)));
  }
  if (rows.empty()) return "";
  const auto xid = scope.facts != nullptr ? fact_text(scope.facts->xid_count) : std::string("?");
  return "<table class=\"gpu-health\"><tr><th>GPU</th><th>PCIe link</th><th>SM clock</th><th>clocks held "
         "by</th><th>"
         "ECC errors</th><th>row remaps waiting / failed</th><th>persistence</th></tr>\n" +
         rows +
         fmt::format("</table>\n<p class=\"note\">Xid lines in the kernel log: {}.</p>\n", escape_html(xid));
}

}  // namespace

std::string gpu_local_html(const Result& r) {
  const auto figures = own_figures(r);
  if (figures.empty()) return "";
  std::string html = chart(figures) + figures_table(figures) + health_table(r);
  if (r.gpus.size() == 1)
    html +=
        "<p class=\"note one-gpu-next\">One GPU: this is what it has on its own. To measure an interconnect, "
        "run "
        "on two or more GPUs of one machine (all of them visible), or across hosts: `mpirun -np 2 -H a,b "
        "fabricbench run all_reduce` (torchrun and srun work too).</p>\n";
  return html;
}

}  // namespace fb
