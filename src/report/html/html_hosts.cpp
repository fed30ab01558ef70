#include "report/html/html_hosts.hpp"

#include <fmt/format.h>

#include "report/hosts_markdown.hpp"
#include "report/svg_chart.hpp"

namespace fb {

std::string hosts_html(const Result& r) {
  if (r.hosts.empty()) return "";
  std::string html = fmt::format(
      "<p>{}</p>\n<table><tr><th>host</th><th>ranks</th><th>GPUs</th><th>{}</th><th>driver</th><th>NICs "
      "up</th><th>NET plugin</th><th>verdict (action)</th></tr>\n",
      escape_html(cluster_line(r)), r.host.comm.name.empty() ? "NCCL" : escape_html(r.host.comm.name));
  for (const auto& s : r.hosts) {
    html += "<tr>";
    for (const auto& cell : host_row_cells(s)) html += "<td>" + escape_html(cell) + "</td>";
    html += "</tr>\n";
  }
  html += "</table>\n";
  for (const auto& s : r.hosts)
    for (const auto& f : s.findings)
      html += fmt::format(
          "<div class=\"finding sev-{0}\" data-severity=\"{0}\"><b>{1}, {0}: "
          "{2}</b><div>{3}</div><div><i>fix:</i> "
          "{4}</div></div>\n",
          f.severity, escape_html(s.name), escape_html(f.code), escape_html(f.evidence), escape_html(f.hint));
  return html;
}

}  // namespace fb
