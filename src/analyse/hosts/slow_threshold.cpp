#include "analyse/hosts/slow_threshold.hpp"

#include <algorithm>
#include <cmath>

#include "core/stats.hpp"

namespace fb {
namespace {

// The standard normal's lower quartile: (median - Q1) / sd.
constexpr double kQuartileSds = 0.6745;

double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return sorted_quantile(v, q);
}

}  // namespace

double healthy_spread(const std::vector<PairFigure>& pairs, double reference_gbs) {
  std::vector<double> v;
  for (const auto& p : pairs)
    if (p.busbw_gbs >= reference_gbs * (1 - kMinSlowDrop)) v.push_back(p.busbw_gbs);
  if (v.size() < kMinPairsForMedian) return 0;
  const double median = quantile(v, 0.5);
  return median > 0 ? (median - quantile(v, 0.25)) / median / kQuartileSds : 0;
}

double repeat_spread(const std::vector<std::pair<double, double>>& repeats) {
  std::vector<double> d;
  for (const auto& [x1, x2] : repeats)
    if (std::max(x1, x2) > 0) d.push_back(std::abs(x1 - x2) / std::max(x1, x2));
  if (d.empty()) return 0;
  return quantile(d, 0.5) / (kQuartileSds * std::sqrt(2.0));
}

double slow_share_from_spread(double spread) {
  return std::max(kLeastSlowShare, 1.0 - std::max(kMinSlowDrop, kSpreadsBelow * spread));
}

double healthy_pair_slow_chance(double spread, double slow_share) {
  if (spread <= 0) return -1;
  return 0.5 * std::erfc((1.0 - slow_share) / spread / std::sqrt(2.0));
}

double healthy_host_chance(int pairs, int slow, double pair_chance) {
  if (pair_chance < 0) return -1;
  if (slow <= 0) return 1;
  if (pair_chance <= 0) return 0;  // so far below that the normal tail underflows
  double total = 0;
  for (int x = slow; x <= pairs; ++x) {
    // C(n, x) p^x (1-p)^(n-x), through lgamma so that large counts do not overflow.
    const double log_choose = std::lgamma(pairs + 1.0) - std::lgamma(x + 1.0) - std::lgamma(pairs - x + 1.0);
    total += std::exp(log_choose + x * std::log(pair_chance) + (pairs - x) * std::log1p(-pair_chance));
  }
  return std::min(total, 1.0);
}

}  // namespace fb
