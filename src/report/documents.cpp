#include "report/documents.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <sstream>

#include "analyse/expect/expectations.hpp"
#include "analyse/judge.hpp"
#include "analyse/verdict/headline_figures.hpp"
#include "analyse/verdict/outcome.hpp"
#include "core/units.hpp"
#include "report/csv_reporter.hpp"
#include "report/hosts_markdown.hpp"
#include "report/html/html_banner.hpp"
#include "report/import_source.hpp"
#include "report/markdown_text.hpp"
#include "report/nccl_choices.hpp"
#include "report/projection_markdown.hpp"
#include "report/verdict_blocks.hpp"

namespace fb {
namespace {

std::string findings_list(const std::vector<Finding>& findings) {
  if (findings.empty()) return "none\n";
  std::string md;
  for (const auto& f : findings)
    md += fmt::format("- **[{}] {}**: {}  \n  expected: {}  \n  hint: {}\n", f.severity, md_text(f.code),
                      md_text(with_human_sizes(f.evidence)), md_text(f.expected), md_text(f.hint));
  return md;
}

}  // namespace

// The words of its cells are the headline's (analyse/verdict/headline_words.hpp): a figure without a row says
// so, and what healthy rings reach is a share of the ring's ceiling, its source beside it.
std::string headline_text_table(const Result& r) {
  std::string md =
      "| figure | measured | expected | of expected | source | path ceiling | of ceiling "
      "|\n|---|---:|---:|---|---|---:|---:|\n";
  for (const auto& h : headline_figures(r))
    md += fmt::format("| {} | {:.1f} {} | {} | {} | {} | {} | {} |\n", md_text(h.figure), h.measured, h.unit,
                      h.expected > 0 ? fmt::format("{:.1f} {}", h.expected, h.unit) : "-", h.percent_text(),
                      md_text(h.expected > 0 ? h.expected_source : (h.reach > 0 ? h.reach_source : "-")),
                      h.ceiling > 0 ? fmt::format("{:.1f} {}", h.ceiling, h.unit) : "-",
                      h.ceiling > 0 ? fmt::format("{:.0f}%", h.measured / h.ceiling * 100) : "-");
  return md;
}

std::string markdown_summary(const Result& r, const std::optional<SavedFindings>& saved) {
  const auto outcome = headline_outcome(r);
  std::string md = "# fabricbench summary\n\n" + verdict_markdown(r);  // the verdict and its action first
  md += fmt::format("{} · {} GPU{} · status {}\n\n**{}**\n\n{}\n\n", md_text(machine_line(r)), r.gpus.size(),
                    r.gpus.size() == 1 ? "" : "s", r.status, md_text(outcome.words),
                    md_text(judged_by_line(r, saved)));
  md += import_source_markdown(r);
  md += headline_text_table(r);
  md += nccl_choices_markdown(r);
  md += projection_markdown(r);
  md += "\n## Findings\n\n" + findings_list(r.findings);
  md += hosts_markdown(r);
  if (saved)
    md += fmt::format("\n## Findings saved in the file, by {}\n\n", rules_words(saved->rules_version)) +
          findings_list(saved->findings);
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
