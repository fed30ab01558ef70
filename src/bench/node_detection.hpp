#pragma once
// What the sampling mode of `fabricbench nodes` can promise (docs/nodes.md): the probability that
// a slow host is named, and how long each mode takes at a cost per round.
#include "bench/node_sampling.hpp"

namespace fb {

// The cost of one round: setting up the pairs' communicators and measuring them. An assumption
// (2 s set-up, the doctor's prior for a set of workers, + 1 s of timed all_reduce) until the
// measuring command measures it; the caller passes the measured figure once there is one.
constexpr double kAssumedSecondsPerRound = 3.0;
// The default mode must finish in this time (issue 29: 1024 hosts in under 5 minutes).
constexpr double kNodesBudgetSeconds = 300.0;

// P(X > n/2) for X ~ Binomial(n, p): a strict majority of n pairs measured slow, each slow with
// probability p independently. 0 for n < 1.
double majority_probability(int n, double p);

// The probability p that one pair of a host whose pairs truly reach `share` of the reference is
// measured below `threshold`, each figure off by normal noise of relative sd `noise`:
// p = Phi((threshold - share) / noise). A host exactly at the threshold is a coin toss (p = 0.5).
double pair_slow_probability(double share, double threshold, double noise);

// The sampling mode names a slow host when a strict majority of its K = passes x peers sampled
// pairs is slow (it is then a suspect) and a strict majority of its m = retest_peers re-test pairs
// is slow:  P(named) = P(Bin(K, p) > K/2) x P(Bin(m, p) > m/2).
// It assumes every sampled pair is measured (an even host count: no byes), m fresh peers exist
// (hosts > K + m + suspects) and healthy pairs are not measured slow.
double detection_rate(const SamplingPlan& plan, double p);

enum class NodesMode { round_robin, sampling };

struct NodesTime {
  NodesMode mode = NodesMode::round_robin;
  int rounds = 0;  // sampling: passes x peers + retest_peers (the re-tests of all suspects at once)
  double seconds = 0;
};

int sampling_round_count(const SamplingPlan& plan);

// The default mode: the full round robin while its rounds fit `budget_s`, sampling beyond.
NodesTime nodes_time(int hosts, double seconds_per_round, const SamplingPlan& plan = {},
                     double budget_s = kNodesBudgetSeconds);

}  // namespace fb
