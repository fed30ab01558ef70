#pragma once
// Whole-result documents: one self-contained HTML page (inline SVG charts, no scripts, no
// network) and a Markdown summary. Both only read the result.
#include <string>

#include "core/result.hpp"

namespace fb {

std::string html_report(const Result& r);
std::string markdown_summary(const Result& r);
// One CSV row per collective point (the `run` CSV format).
std::string points_csv(const Result& r);

}  // namespace fb
