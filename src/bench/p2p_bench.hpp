#pragma once
// Measures every GPU pair and every GPU's host link (bench/p2p_plan.hpp), verifying each copy.
// Concurrent copies are held behind a start gate until all are queued (nvbandwidth's method).
#include <functional>
#include <string>
#include <vector>

#include "bench/p2p_plan.hpp"
#include "model/result.hpp"

namespace fb {

using ProgressFn = std::function<void(const std::string&)>;

// `stop` is asked between samples: once it says yes, the measurements made so far are returned
// (the test under way is dropped) and `stopped` is set.
using StopFn = std::function<bool()>;
std::vector<P2pMeasurement> run_p2p(const P2pPlan& plan, const ProgressFn& progress, const StopFn& stop,
                                    bool& stopped);

}  // namespace fb
