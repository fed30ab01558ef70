#pragma once
// The verdict first: the outcome (healthy, warnings, errors, failed, in progress), the machine in
// one line and the top findings with their evidence and fix.
#include <string>

#include "model/result.hpp"

namespace fb {

// "failed", "running", "errors", "warnings" or "healthy".
std::string outcome(const Result& r);
// "8 x NVIDIA H100 80GB HBM3 · NV18 between all 28 pairs · driver 13.0 · NCCL 2.28.3 · host vm"
std::string machine_line(const Result& r);
std::string banner_html(const Result& r);

}  // namespace fb
