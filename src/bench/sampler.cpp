#include "bench/sampler.hpp"

#include <algorithm>

namespace fb {

bool BatchSampler::done(double elapsed_s) const {
  const int n = static_cast<int>(samples_.size());
  if (n < sampling_.min_batches) return false;
  if (sampling_.target_ci <= 0) return true;  // fixed count: exactly min_batches
  if (n >= sampling_.max_batches || elapsed_s >= sampling_.max_time_s) return true;
  auto sorted = samples_;
  std::sort(sorted.begin(), sorted.end());
  return median_ci_relative(sorted) <= sampling_.target_ci;
}

}  // namespace fb
