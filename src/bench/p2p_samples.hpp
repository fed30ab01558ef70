#pragma once
// A p2p figure from its samples, and when the samples are enough (P2pPlan::samples).
#include <vector>

#include "bench/p2p_plan.hpp"
#include "model/result.hpp"

namespace fb {

// Whether every lane's samples (GB/s, in the order taken) bound its median within the plan's band:
// at least plan.samples each, and a 95% interval within +-plan.median_band of the median.
bool samples_settled(const std::vector<std::vector<double>>& per_lane, const P2pPlan& plan);

// The figure of `samples` (at least one): their median (the mean of the middle two of an even
// count, as nvbandwidth takes it), smallest, largest and count.
P2pMeasurement summarize_samples(P2pTest test, int src, int dst, std::vector<double> samples);

}  // namespace fb
