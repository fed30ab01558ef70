#include "bench/node_detection.hpp"

#include <cmath>

namespace fb {

double majority_probability(int n, double p) {
  double total = 0;
  for (int x = n / 2 + 1; x <= n; ++x) {
    // C(n, x) p^x (1-p)^(n-x), through lgamma so that n in the thousands does not overflow.
    const double log_choose = std::lgamma(n + 1.0) - std::lgamma(x + 1.0) - std::lgamma(n - x + 1.0);
    const double p_term = x == 0 ? 1.0 : std::pow(p, x);
    const double q_term = n - x == 0 ? 1.0 : std::pow(1.0 - p, n - x);
    total += std::exp(log_choose) * p_term * q_term;
  }
  return total;
}

double pair_slow_probability(double share, double threshold, double noise) {
  if (noise <= 0) return share < threshold ? 1.0 : 0.0;
  return 0.5 * std::erfc((share - threshold) / (noise * std::sqrt(2.0)));
}

double detection_rate(const SamplingPlan& plan, double p) {
  return majority_probability(plan.passes * plan.peers, p) * majority_probability(plan.retest_peers, p);
}

int sampling_round_count(const SamplingPlan& plan) { return plan.passes * plan.peers + plan.retest_peers; }

NodesTime nodes_time(int hosts, double seconds_per_round, const SamplingPlan& plan, double budget_s) {
  const int full = round_count(hosts);
  if (full * seconds_per_round <= budget_s) return {NodesMode::round_robin, full, full * seconds_per_round};
  const int sampled = sampling_round_count(plan);
  return {NodesMode::sampling, sampled, sampled * seconds_per_round};
}

}  // namespace fb
