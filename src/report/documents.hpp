#pragma once
// Whole-result documents: a Markdown summary and the points as CSV (the HTML page is
// report/html/html_report.hpp). They only read the result.
#include <optional>
#include <string>

#include "model/result.hpp"
#include "report/html/html_report.hpp"  // html_report(): the HTML page
#include "report/judgement.hpp"

namespace fb {

// The outcome in words, which rules judged it, every headline figure against its expectation (with
// its source) and path ceiling, the findings, and the file's own findings of other rules apart.
std::string markdown_summary(const Result& r, const std::optional<SavedFindings>& saved = std::nullopt);
// The headline figures as a Markdown table (also what `report --analyse` prints above the findings).
std::string headline_text_table(const Result& r);
// One CSV row per collective point (the `run` CSV format).
std::string points_csv(const Result& r);

}  // namespace fb
