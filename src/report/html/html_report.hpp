#pragma once
// The doctor's and `report`'s HTML page: the verdict first, the machine drawn, busbw of every
// collective on one chart (optionally against a reference run), the pair heatmap, scaling, the
// algorithm grid, then the details.
#include <string>

#include "analyse/compare.hpp"
#include "model/result.hpp"

namespace fb {

// `baseline`: another result drawn dashed on the busbw chart (report --baseline); may be null.
std::string html_report(const Result& r, const Result* baseline = nullptr);

// `compare -o diff.html`: both runs on the same charts, the regressions marked.
std::string compare_html(const Result& base, const Result& next, const CompareReport& report,
                         double threshold);

}  // namespace fb
