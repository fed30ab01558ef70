#pragma once
// The doctor's and `report`'s HTML page: the verdict first, the machine drawn, busbw of every
// collective on one chart (optionally against a reference run), the pair heatmap, scaling, the
// algorithm grid, then the details.
#include <optional>
#include <string>

#include "analyse/run/compare.hpp"
#include "model/result.hpp"
#include "report/judgement.hpp"

namespace fb {

// `baseline`: another result drawn dashed on the busbw chart (report --baseline); may be null.
// `saved`: the document's own findings of other rules, listed apart from r.findings.
std::string html_report(const Result& r, const Result* baseline = nullptr,
                        const std::optional<SavedFindings>& saved = std::nullopt);

// `compare -o diff.html`: both runs on the same charts, the regressions marked.
std::string compare_html(const Result& base, const Result& next, const CompareReport& report,
                         double threshold);

}  // namespace fb
