#pragma once
// The verdict first: the outcome (healthy, warnings, errors, failed, in progress), the machine in
// one line and the top findings with their evidence and fix.
#include <optional>
#include <string>

#include "model/result.hpp"
#include "report/judgement.hpp"

namespace fb {

// "failed", "running", "errors", "warnings" or "healthy" (report/judgement.hpp: report_outcome).
std::string outcome(const Result& r);
// "8 x NVIDIA H100 80GB HBM3 · NV18 between all 28 pairs · driver 13.0 · NCCL 2.28.3 · host vm"
std::string machine_line(const Result& r);
// The outcome in words, the machine, which rules judged it and the top findings. `saved`: the
// document's own findings of other rules, listed apart (said here).
std::string banner_html(const Result& r, const std::optional<SavedFindings>& saved = std::nullopt);

}  // namespace fb
