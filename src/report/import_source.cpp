#include "report/import_source.hpp"

#include <fmt/format.h>

#include "report/markdown_text.hpp"

namespace fb {

std::string import_source_markdown(const Result& r) {
  if (!r.source) return "";
  const auto& s = *r.source;
  std::string md =
      fmt::format("Read from {}{}'s output {}: one figure per size, as the tool printed it.\n\n",
                  md_text(s.tool), s.version.empty() ? "" : " " + md_text(s.version), md_text(s.file));
  for (const auto& c : s.converted) md += "- converted: " + md_text(c) + "\n";
  for (const auto& k : s.skipped) md += "- left out: " + md_text(k) + "\n";
  for (const auto& e : s.env_sources) md += "- environment read: " + md_text(e) + "\n";
  for (const auto& u : s.unknown) md += "- not in the output: " + md_text(u) + "\n";
  return md + "\n";
}

}  // namespace fb
