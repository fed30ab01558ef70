#pragma once
// The fleet simulator's trials (docs/nodes.md, "The fleet simulator"): the slow-host search of
// `nodes` and the doctor (slow_host_search) run against many seeded fleets of a scenario, and what
// it named counted: recall, false names, rounds and pair time.
#include <cstdint>
#include <string>
#include <vector>

#include "bench/node_detection.hpp"
#include "fleet_model.hpp"

namespace fb {

struct TrialPlan {
  int trials = 200;
  std::uint64_t seed = 1;
  // The cost of a round: kAssumedSecondsPerRound (3 s) for real hosts; 1.2-1.4 s measured on the
  // fake hosts (docs/nodes.md).
  double seconds_per_round = kAssumedSecondsPerRound;
  SamplingPlan sampling;
  double budget_s = kNodesBudgetSeconds;  // the round robin while it fits, the search beyond
};

struct FleetStats {
  NodesMode mode = NodesMode::round_robin;
  int trials = 0;
  int planted = 0;        // slow and flaky hosts, over every trial
  int found = 0;          // of them named
  int named = 0;          // hosts named, over every trial
  int named_healthy = 0;  // of them healthy
  int runs_with_false = 0;
  int links_planted = 0;
  int links_reported = 0;  // said as a slow link (NODE_SLOW_LINK), neither end named
  long rounds = 0;         // over every trial

  [[nodiscard]] double recall() const { return planted > 0 ? static_cast<double>(found) / planted : 0; }
  // The share of the names that are healthy hosts (0 where nothing was named).
  [[nodiscard]] double false_share() const {
    return named > 0 ? static_cast<double>(named_healthy) / named : 0;
  }
  [[nodiscard]] double mean_rounds() const { return trials > 0 ? static_cast<double>(rounds) / trials : 0; }
};

FleetStats run_trials(const FleetScenario& scenario, const TrialPlan& plan);

// The scenarios of docs/nodes.md's table at `hosts` hosts: healthy; one slow host 3%, 5%, 10%, 20%
// and 50% slower; several slow hosts (1% of the hosts, at least 2) 10% slower; a flaky host 20%
// slower one round in three; a slow link (a pair's path at 70%).
std::vector<FleetScenario> standard_scenarios(int hosts);

}  // namespace fb
