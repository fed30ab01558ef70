#pragma once
// Summary statistics of per-operation time samples (one sample per timed batch).
#include <span>
#include <vector>

namespace fb {

struct TimeStats {
  double min = 0, median = 0, mean = 0, p99 = 0, max = 0;
  // Half-width of the distribution-free 95% confidence interval of the median, relative to
  // the median (0.01 = +-1%). Infinity when there are too few samples to bound it.
  double median_ci = 0;
  int n = 0;
};

// Linear-interpolated quantile (q in [0,1]) of already sorted values.
double sorted_quantile(std::span<const double> sorted, double q);

// 95% confidence interval of the median from order statistics (no normality assumed):
// 1-based ranks floor(n/2 - 0.98*sqrt(n)) and ceil(n/2 + 1 + 0.98*sqrt(n)), clamped to 1..n.
// Returns the relative half-width; infinity for n < 6.
double median_ci_relative(std::span<const double> sorted);

TimeStats summarize(std::vector<double> samples);

}  // namespace fb
