// The sampling mode of `fabricbench nodes` (bench/node_sampling, bench/node_detection): its seeded
// schedule, its detection rate against a seeded simulation of the whole method (sampling, ranking,
// re-test), and the time of the default mode for 16, 128 and 1024 hosts.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "analyse/hosts/node_ranking.hpp"
#include "bench/node_detection.hpp"
#include "node_ranking_helpers.hpp"

namespace {

std::vector<fb::HostPair> flatten(const std::vector<fb::PairRound>& rounds) {
  std::vector<fb::HostPair> out;
  for (const auto& r : rounds) out.insert(out.end(), r.begin(), r.end());
  return out;
}

double uniform01(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11U) * 0x1.0p-53; }

// One measurement of each pair: healthy pairs at 48 GB/s +-1%; a pair with the slow host is
// measured below the threshold (at 60%) with probability p, else at 95%.
std::vector<fb::PairFigure> measure(const std::vector<fb::PairRound>& rounds, int slow, double p,
                                    std::mt19937_64& rng) {
  std::vector<fb::PairFigure> out;
  for (std::size_t r = 0; r < rounds.size(); ++r)
    for (const auto& [a, b] : rounds[r]) {
      double share = 1.0 + 0.02 * (uniform01(rng) - 0.5);
      if (a == slow || b == slow) share = uniform01(rng) < p ? 0.6 : 0.95;
      out.push_back({a, b, 48.0 * share, static_cast<int>(r)});
    }
  return out;
}

}  // namespace

TEST(NodeSampling, RoundsKeepEveryHostBusyWithDistinctPeersPerPass) {
  const fb::SamplingPlan plan{.peers = 3, .passes = 2, .retest_peers = 4, .seed = 7};
  const auto rounds = fb::sampling_rounds(64, plan);
  ASSERT_EQ(rounds.size(), 6U);
  for (int pass = 0; pass < 2; ++pass) {
    std::set<fb::HostPair> seen;
    for (int r = 0; r < 3; ++r) {
      std::set<int> busy;
      for (const auto& [a, b] : rounds[static_cast<std::size_t>(pass * 3 + r)]) {
        EXPECT_TRUE(busy.insert(a).second && busy.insert(b).second);
        EXPECT_TRUE(seen.insert({a, b}).second) << "a peer met twice in one pass";
      }
      EXPECT_EQ(busy.size(), 64U);
    }
  }
  EXPECT_EQ(fb::sampling_rounds(64, plan), rounds) << "the same seed gives the same pairs";
  EXPECT_NE(fb::sampling_rounds(64, {.peers = 3, .passes = 2, .retest_peers = 4, .seed = 8}), rounds);
  EXPECT_NE(rounds[0], rounds[3]) << "each pass shuffles afresh";
}

TEST(NodeSampling, RetestPairsSuspectsWithFreshHealthyPeers) {
  const fb::SamplingPlan plan{};
  const auto measured = flatten(fb::sampling_rounds(32, plan));
  const std::vector<int> suspects{4, 9};
  const auto rounds = fb::retest_rounds(32, suspects, measured, plan);
  ASSERT_EQ(rounds.size(), 4U);
  const std::set<fb::HostPair> before(measured.begin(), measured.end());
  std::set<fb::HostPair> seen;
  for (const auto& round : rounds) {
    ASSERT_EQ(round.size(), 2U);
    std::set<int> busy;
    for (const auto& [a, b] : round) {
      EXPECT_TRUE(busy.insert(a).second && busy.insert(b).second);
      EXPECT_FALSE(before.contains({a, b})) << "a peer the suspect already met";
      EXPECT_TRUE(seen.insert({a, b}).second);
      EXPECT_NE((a == 4 || a == 9), (b == 4 || b == 9)) << "exactly one end is a suspect";
    }
  }
  // 3 hosts: the suspect has met both others, so there is no fresh peer.
  EXPECT_TRUE(fb::retest_rounds(3, {0}, {{0, 1}, {0, 2}}, plan).empty());
}

TEST(NodeDetection, BinomialMajorityByHand) {
  EXPECT_DOUBLE_EQ(fb::majority_probability(6, 0.5), 22.0 / 64);  // C(6,4)+C(6,5)+C(6,6) of 2^6
  EXPECT_DOUBLE_EQ(fb::majority_probability(4, 0.5), 5.0 / 16);
  EXPECT_NEAR(fb::majority_probability(6, 0.7), 0.744310, 1e-6);  // 0.324135 + 0.302526 + 0.117649
  EXPECT_NEAR(fb::majority_probability(1, 0.3), 0.3, 1e-12);
  EXPECT_EQ(fb::majority_probability(0, 0.9), 0.0);
  EXPECT_NEAR(fb::detection_rate({}, 0.7), 0.744310 * 0.6517, 1e-6);  // K = 6, m = 4
  EXPECT_DOUBLE_EQ(fb::detection_rate({}, 1.0), 1.0);
  EXPECT_DOUBLE_EQ(fb::pair_slow_probability(0.8, 0.8, 0.05), 0.5);
  EXPECT_NEAR(fb::pair_slow_probability(0.7, 0.8, 0.05), 0.977250, 1e-6);  // Phi(2)
  EXPECT_EQ(fb::pair_slow_probability(0.79, 0.8, 0), 1.0);
}

// The formula against the method itself: 2000 seeded trials of 64 hosts, one slow host whose pairs
// are measured slow with probability p, through sampling, ranking and the re-test.
TEST(NodeDetection, FormulaMatchesASeededSimulation) {
  constexpr int kHosts = 64, kSlow = 17, kTrials = 2000;
  for (const double p : {0.7, 0.9}) {
    int detected = 0, wrongly_named = 0;
    std::mt19937_64 noise(42);
    for (int t = 0; t < kTrials; ++t) {
      fb::SamplingPlan plan;
      plan.seed = static_cast<std::uint64_t>(t) + 1;
      const auto rounds = fb::sampling_rounds(kHosts, plan);
      const auto first = fb::rank_hosts(measure(rounds, kSlow, p, noise), {});
      const auto suspects = named_hosts(first);
      const auto retest = fb::retest_rounds(kHosts, suspects, flatten(rounds), plan);
      const auto second =
          fb::rank_hosts(measure(retest, kSlow, p, noise), {}, reference_rule(first.reference_gbs));
      for (const int h : named_hosts(second)) {
        const bool confirmed = std::find(suspects.begin(), suspects.end(), h) != suspects.end();
        detected += confirmed && h == kSlow ? 1 : 0;
        wrongly_named += confirmed && h != kSlow ? 1 : 0;
      }
    }
    const double expected = fb::detection_rate({}, p);  // 0.4851 at 0.7, 0.9327 at 0.9
    // 2000 trials: a binomial sd of at most 0.0112; 0.035 is over 3 sd.
    EXPECT_NEAR(static_cast<double>(detected) / kTrials, expected, 0.035) << "p=" << p;
    EXPECT_EQ(wrongly_named, 0) << "p=" << p;
  }
}

// At the assumed 3 s per round: the round robin while it fits 300 s (up to 100 hosts), sampling
// (3 passes x 2 peers + 4 re-test rounds = 10 rounds) beyond.
TEST(NodeDetection, DefaultModeFinishes1024HostsInFiveMinutes) {
  const double cost = fb::kAssumedSecondsPerRound;
  ASSERT_EQ(cost, 3.0);
  const auto t16 = fb::nodes_time(16, cost);
  EXPECT_EQ(t16.mode, fb::NodesMode::round_robin);
  EXPECT_EQ(t16.rounds, 15);
  EXPECT_DOUBLE_EQ(t16.seconds, 45.0);  // 15 x 3 s
  const auto t128 = fb::nodes_time(128, cost);
  EXPECT_EQ(t128.mode, fb::NodesMode::sampling);  // the round robin: 127 x 3 = 381 s > 300 s
  EXPECT_EQ(t128.rounds, 10);
  EXPECT_DOUBLE_EQ(t128.seconds, 30.0);
  const auto t1024 = fb::nodes_time(1024, cost);
  EXPECT_EQ(t1024.mode, fb::NodesMode::sampling);  // the round robin: 1023 x 3 = 3069 s
  EXPECT_DOUBLE_EQ(t1024.seconds, 30.0);
  EXPECT_LT(t1024.seconds, 300.0);
  EXPECT_EQ(fb::nodes_time(100, cost).mode, fb::NodesMode::round_robin);  // 99 x 3 = 297 s
  EXPECT_EQ(fb::nodes_time(102, cost).mode, fb::NodesMode::sampling);     // 101 x 3 = 303 s
  // A measured cost replaces the assumption: at 40 s per round even sampling's 10 rounds overrun.
  EXPECT_DOUBLE_EQ(fb::nodes_time(1024, 40.0).seconds, 400.0);
}
