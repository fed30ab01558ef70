#include "report/documents.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <sstream>

#include "analyse/expectations.hpp"
#include "analyse/verdicts.hpp"
#include "report/csv_reporter.hpp"

namespace fb {

std::string markdown_summary(const Result& r) {
  std::string md = fmt::format("# fabricbench summary\n\n{} · {} {} · {} GPU{} · status {}\n\n",
                               r.host.hostname, r.host.comm.name, r.host.comm.version, r.gpus.size(),
                               r.gpus.size() == 1 ? "" : "s", r.status);
  md +=
      "| figure | measured | path ceiling | of ceiling | expected | of expected "
      "|\n|---|---:|---:|---:|---:|---|\n";
  for (const auto& h : headline_figures(r))
    md += fmt::format("| {} | {:.1f} {} | {} | {} | {} | {} |\n", h.figure, h.measured, h.unit,
                      h.ceiling > 0 ? fmt::format("{:.1f} {}", h.ceiling, h.unit) : "-",
                      h.ceiling > 0 ? fmt::format("{:.0f}%", h.measured / h.ceiling * 100) : "-",
                      h.expected > 0 ? fmt::format("{:.1f} {}", h.expected, h.unit) : "-", h.percent_text());
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
