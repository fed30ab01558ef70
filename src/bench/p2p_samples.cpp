#include "bench/p2p_samples.hpp"

#include <algorithm>

#include "core/stats.hpp"
#include "model/p2p_tests.hpp"

namespace fb {

bool samples_settled(const std::vector<std::vector<double>>& per_lane, const P2pPlan& plan) {
  if (per_lane.empty()) return false;
  return std::all_of(per_lane.begin(), per_lane.end(), [&plan](std::vector<double> v) {
    if (static_cast<int>(v.size()) < plan.samples) return false;
    std::sort(v.begin(), v.end());
    return median_ci_relative(v) <= plan.median_band;
  });
}

P2pMeasurement summarize_samples(P2pTest test, int src, int dst, std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  P2pMeasurement m;
  m.test = test;
  m.src = src;
  m.dst = dst;
  m.unit = p2p_test_spec(test).unit;
  m.value = sorted_quantile(samples, 0.5);
  m.min = samples.front();
  m.max = samples.back();
  m.samples = static_cast<int>(samples.size());
  return m;
}

}  // namespace fb
