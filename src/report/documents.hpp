#pragma once
// Whole-result documents: a Markdown summary and the points as CSV (the HTML page is
// report/html/html_report.hpp). They only read the result.
#include <string>

#include "model/result.hpp"
#include "report/html/html_report.hpp"  // html_report(): the HTML page

namespace fb {

std::string markdown_summary(const Result& r);
// One CSV row per collective point (the `run` CSV format).
std::string points_csv(const Result& r);

}  // namespace fb
