#include "report/import_source.hpp"

#include <fmt/format.h>

namespace fb {

std::string import_source_markdown(const Result& r) {
  if (!r.source) return "";
  const auto& s = *r.source;
  std::string md = fmt::format("Read from {}{}'s output {}: one figure per size, as the tool printed it.\n\n",
                               s.tool, s.version.empty() ? "" : " " + s.version, s.file);
  for (const auto& c : s.converted) md += "- converted: " + c + "\n";
  for (const auto& k : s.skipped) md += "- left out: " + k + "\n";
  for (const auto& e : s.env_sources) md += "- environment read: " + e + "\n";
  for (const auto& u : s.unknown) md += "- not in the output: " + u + "\n";
  return md + "\n";
}

}  // namespace fb
