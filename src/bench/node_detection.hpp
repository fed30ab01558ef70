#pragma once
// How long each mode of `fabricbench nodes` takes at a cost per round, and which one it runs
// (docs/nodes.md; how often each names a slow host is the fleet simulator's: tools/fleet).
#include "bench/node_sampling.hpp"

namespace fb {

// The cost of one round: setting up the pairs' communicators and measuring them. An assumption
// (2 s set-up, the doctor's prior for a set of workers, + 1 s of timed all_reduce) until the
// measuring command measures it; the caller passes the measured figure once there is one.
constexpr double kAssumedSecondsPerRound = 3.0;
// The default mode must finish in this time (issue 29: 1024 hosts in under 5 minutes).
constexpr double kNodesBudgetSeconds = 300.0;

enum class NodesMode { round_robin, sampling };

struct NodesTime {
  NodesMode mode = NodesMode::round_robin;
  int rounds = 0;  // sampling: passes x peers + retest_peers (the re-pairs of all suspects at once)
  double seconds = 0;
};

int sampling_round_count(const SamplingPlan& plan);

// The default mode: the full round robin while its rounds fit `budget_s`, sampling beyond.
NodesTime nodes_time(int hosts, double seconds_per_round, const SamplingPlan& plan = {},
                     double budget_s = kNodesBudgetSeconds);

}  // namespace fb
