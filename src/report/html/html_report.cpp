#include "report/html/html_report.hpp"

#include <fmt/format.h>

#include "analyse/scope/gpu_names.hpp"
#include "report/html/html_banner.hpp"
#include "report/html/html_charts.hpp"
#include "report/html/html_cluster.hpp"
#include "report/html/html_gpu_local.hpp"
#include "report/html/html_hosts.hpp"
#include "report/html/html_page.hpp"
#include "report/html/html_pairs.hpp"
#include "report/html/html_projection.hpp"
#include "report/html/html_tables.hpp"
#include "report/html/html_topology.hpp"
#include "report/nccl_choices.hpp"
#include "report/svg_chart.hpp"
#include "report/verdict_blocks.hpp"

namespace fb {
namespace {

std::string busbw_section(const Result& r, const Result* baseline) {
  const bool any_collective = std::any_of(r.runs.begin(), r.runs.end(), [](const Run& run) {
    return run.kind == RunKind::collective && !run.points.empty();
  });
  if (!any_collective) return "";
  if (!has_interconnect(r))
    return "<p class=\"note one-gpu\">One GPU: there is no interconnect to measure, so no bus bandwidth is "
           "drawn.</p>\n" +
           headline_table(r);
  BusbwChartOptions o;
  o.reference = baseline;
  if (baseline)
    o.reference_name =
        "baseline " + (baseline->host.hostname.empty() ? baseline->started : baseline->host.hostname);
  std::string html = busbw_chart(r, o);
  html +=
      "<p class=\"note\">Short bars: each collective's expected busbw at that size (the expectation the "
      "findings use; its source in the table below and on hover). Dashed line: the ring's SM ceiling, what "
      "the path can carry at best, not an expectation.</p>\n";
  if (baseline) html += "<p class=\"note\">Dashed: the baseline run, same colour per collective.</p>\n";
  return html + headline_table(r) + nccl_choices_html(r);
}

}  // namespace

std::string html_report(const Result& r, const Result* baseline, const std::optional<SavedFindings>& saved) {
  std::string body = verdict_html(r) + banner_html(r, saved);  // the verdict and its action first
  body += spans_hosts(r) ? html_section("machine", "The hosts", cluster_html(r))
                         : html_section("machine", "The machine", topology_svg(r));
  body += html_section("busbw", "Collectives: bus bandwidth", busbw_section(r, baseline));
  body += html_section("gpus", "Each GPU on its own: host link, memory, health", gpu_local_html(r));
  body += html_section("pairs", "GPU pairs", pair_heatmap(r) + pair_figures_table(r));
  body += html_section("scaling", "Scaling", scaling_chart(r));
  body += html_section("projection", "Tensor-parallel projection", projection_charts(r));
  body += html_section("algos", "Algorithms and protocols", algos_chart(r) + algos_table(r));
  body += html_section("findings", "Findings", findings_html(r));
  body += html_section("hosts", "Hosts", hosts_html(r));
  if (saved)
    body +=
        html_section("saved-findings", "Findings saved in the file, by " + rules_words(saved->rules_version),
                     saved_findings_html(*saved));
  body += html_section("topology", "Topology details", topology_table(r));
  body += html_section("environment", "Run and environment", environment_html(r));
  return html_page(report_title(r), body);
}

}  // namespace fb
