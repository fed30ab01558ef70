#include "core/stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace fb {

double sorted_quantile(std::span<const double> sorted, double q) {
  if (sorted.empty()) return 0.0;
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<size_t>(std::floor(pos));
  const auto hi = std::min(lo + 1, sorted.size() - 1);
  const double frac = pos - static_cast<double>(lo);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

double median_ci_relative(std::span<const double> sorted) {
  const auto n = static_cast<double>(sorted.size());
  if (sorted.size() < 6) return std::numeric_limits<double>::infinity();
  // 1-based order-statistic ranks bracketing the median with ~95% coverage.
  const double half = 0.98 * std::sqrt(n);
  auto lo = static_cast<long>(std::floor(n / 2.0 - half));
  auto hi = static_cast<long>(std::ceil(n / 2.0 + 1.0 + half));
  lo = std::max(lo, 1L);
  hi = std::min(hi, static_cast<long>(sorted.size()));
  const double median = sorted_quantile(sorted, 0.5);
  if (median <= 0) return std::numeric_limits<double>::infinity();
  return (sorted[static_cast<size_t>(hi - 1)] - sorted[static_cast<size_t>(lo - 1)]) / (2.0 * median);
}

TimeStats summarize(std::vector<double> samples) {
  TimeStats s;
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  s.n = static_cast<int>(samples.size());
  s.min = samples.front();
  s.max = samples.back();
  s.median = sorted_quantile(samples, 0.5);
  s.p99 = sorted_quantile(samples, 0.99);
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(s.n);
  s.median_ci = median_ci_relative(samples);
  return s;
}

}  // namespace fb
