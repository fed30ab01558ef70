#include "fleet_trials.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "analyse/hosts/slow_host_search.hpp"

namespace fb {
namespace {

// A trial's own seed: the plan's seed and the trial's number mixed (splitmix64's constants), so that
// trials are independent and a plan's seed gives the same trials everywhere.
std::uint64_t trial_seed(std::uint64_t seed, int trial) {
  std::uint64_t z = seed + 0x9e3779b97f4a7c15ULL * static_cast<std::uint64_t>(trial + 1);
  z = (z ^ (z >> 30U)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27U)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31U);
}

void count_trial(const FleetModel& fleet, const SearchOutcome& outcome, FleetStats& stats) {
  const std::set<int> slow(fleet.slow().begin(), fleet.slow().end());
  bool any_false = false;
  for (const auto& n : outcome.ranking.named) {
    ++stats.named;
    if (slow.contains(n.host)) {
      ++stats.found;
    } else {
      ++stats.named_healthy;
      any_false = true;
    }
  }
  stats.planted += static_cast<int>(slow.size());
  stats.runs_with_false += any_false ? 1 : 0;
  for (const auto& link : fleet.links()) {
    ++stats.links_planted;
    stats.links_reported += std::any_of(outcome.ranking.slow_links.begin(), outcome.ranking.slow_links.end(),
                                        [&](const PairFigure& p) {
                                          return HostPair{p.a, p.b} == link;
                                        })
                                ? 1
                                : 0;
  }
  stats.rounds += outcome.rounds;
}

}  // namespace

FleetStats run_trials(const FleetScenario& scenario, const TrialPlan& plan) {
  FleetStats stats;
  stats.mode = nodes_time(scenario.hosts, plan.seconds_per_round, plan.sampling, plan.budget_s).mode;
  std::vector<std::string> names;
  names.reserve(static_cast<std::size_t>(scenario.hosts));
  for (int h = 0; h < scenario.hosts; ++h) names.push_back(fmt::format("host{}", h));
  const RankingRule rule;  // the threshold from the pairs' spread, as `nodes` takes it
  for (int t = 0; t < plan.trials; ++t) {
    const auto seed = trial_seed(plan.seed, t);
    FleetModel fleet(scenario, seed);
    const MeasureRounds measure = [&](const std::vector<PairRound>& rounds, int first,
                                      std::vector<PairFigure>& figures) {
      return fleet.measure(rounds, first, figures);
    };
    SamplingPlan sampling = plan.sampling;
    sampling.seed = seed;
    const auto outcome = stats.mode == NodesMode::sampling
                             ? search_sampled(scenario.hosts, names, sampling, rule, measure)
                             : search_round_robin(scenario.hosts, names, rule, measure);
    count_trial(fleet, outcome, stats);
    ++stats.trials;
  }
  return stats;
}

std::vector<FleetScenario> standard_scenarios(int hosts) {
  std::vector<FleetScenario> out;
  out.push_back({.name = "healthy", .hosts = hosts});
  for (const double by : {0.03, 0.05, 0.10, 0.20, 0.50})
    out.push_back({.name = fmt::format("1 host {:.0f}% slower", by * 100),
                   .hosts = hosts,
                   .slow_hosts = 1,
                   .slow_by = by});
  const int several = std::max(2, hosts / 100);
  out.push_back({.name = "1% of hosts (at least 2) 10% slower", .hosts = hosts, .slow_hosts = several});
  out.push_back({.name = "1 host 20% slower one round in three", .hosts = hosts, .flaky_hosts = 1});
  out.push_back({.name = "1 slow link (its pair at 70%)", .hosts = hosts, .slow_links = 1});
  return out;
}

}  // namespace fb
