#pragma once
// Measures every GPU pair and every GPU's host link (bench/p2p_plan.hpp), verifying each copy.
// Concurrent copies are held behind a start gate until all are queued (nvbandwidth's method).
#include <functional>
#include <string>
#include <vector>

#include "bench/p2p_plan.hpp"
#include "core/result.hpp"

namespace fb {

using ProgressFn = std::function<void(const std::string&)>;

std::vector<P2pMeasurement> run_p2p(const P2pPlan& plan, const ProgressFn& progress);

}  // namespace fb
