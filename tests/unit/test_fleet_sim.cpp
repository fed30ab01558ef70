// The slow-host search (analyse/hosts/slow_host_search) and the fleet simulator (tools/fleet,
// docs/nodes.md "The fleet simulator"): the search's passes, and the table's recall and false names at
// the seed docs/nodes.md gives (the same figures on every machine).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "analyse/hosts/slow_host_search.hpp"
#include "fleet_trials.hpp"

namespace {

std::vector<std::string> host_names(int n) {
  std::vector<std::string> out;
  for (int h = 0; h < n; ++h) out.push_back(fmt::format("node{:02}", h));
  return out;
}

fb::FleetScenario scenario_named(int hosts, const std::string& start) {
  for (auto& s : fb::standard_scenarios(hosts))
    if (s.name.starts_with(start)) return s;
  ADD_FAILURE() << "no scenario " << start;
  return {};
}

fb::TrialPlan plan_of(int trials, std::uint64_t seed) {
  fb::TrialPlan plan;
  plan.trials = trials;
  plan.seed = seed;
  return plan;
}

}  // namespace

TEST(FleetSearch, SuspectsAreRePairedOnlyWithHostsTheFirstPassFoundGood) {
  fb::FleetScenario s = scenario_named(256, "1% of hosts");
  s.slow_hosts = 4;
  fb::FleetModel fleet(s, 7);
  std::vector<std::vector<fb::PairRound>> asked;
  const auto measure = [&](const std::vector<fb::PairRound>& rounds, int first,
                           std::vector<fb::PairFigure>& out) {
    asked.push_back(rounds);
    return fleet.measure(rounds, first, out);
  };
  const fb::SamplingPlan plan{};
  const auto out = fb::search_sampled(256, host_names(256), plan, fb::RankingRule{}, measure);
  ASSERT_EQ(asked.size(), 2U) << "a first pass, then the re-pairs";
  EXPECT_EQ(asked[0].size(), static_cast<std::size_t>(plan.passes * plan.peers));
  EXPECT_EQ(asked[1].size(), static_cast<std::size_t>(plan.retest_peers));
  const std::set<int> suspects(out.suspects.begin(), out.suspects.end());
  std::set<int> slow_in_first_pass;
  std::size_t first_pass = 0;
  for (const auto& round : asked[0]) first_pass += round.size();
  for (std::size_t i = 0; i < first_pass; ++i)
    if (out.figures[i].busbw_gbs < out.ranking.slow_below_gbs)
      slow_in_first_pass.insert({out.figures[i].a, out.figures[i].b});
  for (const auto& round : asked[1])
    for (const auto& [a, b] : round) {
      EXPECT_NE(suspects.contains(a), suspects.contains(b)) << "a suspect beside a host known good";
      EXPECT_FALSE(slow_in_first_pass.contains(suspects.contains(a) ? b : a));
    }
  std::vector<int> named;
  for (const auto& n : out.ranking.named) named.push_back(n.host);
  std::sort(named.begin(), named.end());
  EXPECT_EQ(named, fleet.slow());
  EXPECT_EQ(out.rounds, plan.passes * plan.peers + plan.retest_peers);
}

// The goal of issue 50: 1,024 hosts, one host 10% slower, named with at least 95% recall and at most
// 1% false names in at most 5 minutes of pair time (at the assumed 3 s a round). docs/nodes.md's
// table: 200 fleets, seed 1.
TEST(FleetSim, TenPercentSlowHostOf1024IsNamedWithinFiveMinutes) {
  const auto stats = fb::run_trials(scenario_named(1024, "1 host 10%"), plan_of(200, 1));
  EXPECT_EQ(stats.mode, fb::NodesMode::sampling);
  EXPECT_GE(stats.recall(), 0.95);
  EXPECT_LE(stats.false_share(), 0.01);
  EXPECT_LE(stats.mean_rounds() * fb::kAssumedSecondsPerRound, fb::kNodesBudgetSeconds);
  EXPECT_EQ(stats.found, 200) << "the table's 100.0%";
  EXPECT_EQ(stats.named_healthy, 0) << "the table's 0.00%";
  EXPECT_EQ(stats.mean_rounds(), 10) << "6 rounds of the first pass, 4 of re-pairs: 30 s";
}

TEST(FleetSim, TheTablesOtherFiguresAt1024Hosts) {
  const auto plan = plan_of(200, 1);
  const auto healthy = fb::run_trials(scenario_named(1024, "healthy"), plan);
  EXPECT_EQ(healthy.named, 0);
  EXPECT_EQ(healthy.mean_rounds(), 6) << "no suspect: no re-pair";
  const auto several = fb::run_trials(scenario_named(1024, "1% of hosts"), plan);
  EXPECT_EQ(several.planted, 200 * 10);
  EXPECT_EQ(several.found, several.planted);
  EXPECT_EQ(several.named_healthy, 0);
  const auto five = fb::run_trials(scenario_named(1024, "1 host 5%"), plan);
  EXPECT_EQ(five.found, 0) << "within the spread between healthy hosts (+-3%): not named";
  EXPECT_EQ(five.named_healthy, 0);
  const auto flaky = fb::run_trials(scenario_named(1024, "1 host 20% slower one round"), plan);
  EXPECT_EQ(flaky.found, 165) << "the table's 82.5%";
  EXPECT_EQ(flaky.named_healthy, 0);
}

TEST(FleetSim, SmallFleetsUseTheRoundRobinAndSayTheSlowLink) {
  const auto plan = plan_of(100, 1);
  const auto link = fb::run_trials(scenario_named(16, "1 slow link"), plan);
  EXPECT_EQ(link.mode, fb::NodesMode::round_robin);
  EXPECT_EQ(link.links_reported, 100);
  EXPECT_EQ(link.named, 0);
  EXPECT_EQ(link.mean_rounds(), 15);
  const auto half = fb::run_trials(scenario_named(16, "1 host 50%"), plan);
  EXPECT_EQ(half.found, 100);
  EXPECT_EQ(half.named_healthy, 0);
}

TEST(FleetSim, ASeedGivesTheSameFleetsAndFigures) {
  const auto s = scenario_named(256, "1 host 20% slower one round");
  const auto a = fb::run_trials(s, plan_of(20, 5));
  const auto b = fb::run_trials(s, plan_of(20, 5));
  EXPECT_EQ(a.found, b.found);
  EXPECT_EQ(a.named, b.named);
  EXPECT_EQ(a.rounds, b.rounds);
  fb::FleetModel x(s, 3), y(s, 3);
  EXPECT_EQ(x.slow(), y.slow());
  std::vector<fb::PairFigure> fx, fy;
  x.measure({{{0, 1}, {2, 3}}}, 1, fx);
  y.measure({{{0, 1}, {2, 3}}}, 1, fy);
  ASSERT_EQ(fx.size(), 2U);
  EXPECT_EQ(fx[0].busbw_gbs, fy[0].busbw_gbs);
}
