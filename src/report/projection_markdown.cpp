#include "report/projection_markdown.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "report/projection_table.hpp"

namespace fb {
namespace {

std::string bullets(const std::vector<std::string>& lines) {
  std::string md;
  for (const auto& l : lines) md += "- " + l + "\n";
  return md;
}

std::string table_row(const std::vector<std::string>& cells) {
  return fmt::format("| {} |\n", fmt::join(cells, " | "));
}

std::string phase_markdown(const ProjectionPhase& ph) {
  const auto columns = projection_columns();
  std::string md = "\n### " + phase_title(ph) + "\n\n" + table_row(columns) + "|---";
  for (std::size_t i = 1; i < columns.size(); ++i) md += i + 1 == columns.size() ? "|---" : "|---:";
  md += "|\n";
  for (const auto& r : ph.rows) md += table_row(projection_cells(r));
  return md + "\n" + bullets(answer_lines(ph));
}

}  // namespace

std::string projection_markdown(const Result& r) {
  if (!r.projection) return "";
  const Projection& p = *r.projection;
  std::string md = "\n## Tensor-parallel projection\n\n" + bullets(projection_inputs(p));
  for (const auto& ph : p.phases) md += phase_markdown(ph);
  md +=
      "\n" + marks_legend() + ".\n\n### Assumptions (docs/projection.md)\n\n" + bullets(assumption_lines(p));
  return md;
}

}  // namespace fb
