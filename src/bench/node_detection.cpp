#include "bench/node_detection.hpp"

namespace fb {

int sampling_round_count(const SamplingPlan& plan) { return plan.passes * plan.peers + plan.retest_peers; }

NodesTime nodes_time(int hosts, double seconds_per_round, const SamplingPlan& plan, double budget_s) {
  const int full = round_count(hosts);
  if (full * seconds_per_round <= budget_s) return {NodesMode::round_robin, full, full * seconds_per_round};
  const int sampled = sampling_round_count(plan);
  return {NodesMode::sampling, sampled, sampled * seconds_per_round};
}

}  // namespace fb
