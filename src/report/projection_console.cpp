#include "report/projection_console.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "report/projection_table.hpp"

namespace fb {
namespace {

// Columns right-aligned to their widest cell, the last (words) left-aligned.
std::string aligned(const std::vector<std::vector<std::string>>& lines) {
  std::vector<std::size_t> width(lines.front().size(), 0);
  for (const auto& cells : lines)
    for (std::size_t c = 0; c < cells.size(); ++c) width[c] = std::max(width[c], cells[c].size());
  std::string out;
  for (const auto& cells : lines) {
    std::string line = " ";
    for (std::size_t c = 0; c + 1 < cells.size(); ++c) line += fmt::format(" {:>{}}", cells[c], width[c]);
    out += line + "  " + cells.back() + "\n";
  }
  return out;
}

std::string phase_table(const ProjectionPhase& ph) {
  std::vector<std::vector<std::string>> lines{projection_columns()};
  for (const auto& r : ph.rows) lines.push_back(projection_cells(r));
  std::string out = "\n" + phase_title(ph) + "\n" + aligned(lines);
  for (const auto& a : answer_lines(ph)) out += "  " + a + "\n";
  return out;
}

}  // namespace

std::string projection_table(const Projection& p) {
  std::string out;
  for (const auto& line : projection_inputs(p)) out += line + "\n";
  for (const auto& ph : p.phases) out += phase_table(ph);
  out += "\n" + marks_legend() + ".\n";
  out += "\nAssumptions (docs/projection.md):\n";
  for (const auto& line : assumption_lines(p)) out += "  " + line + "\n";
  return out;
}

}  // namespace fb
