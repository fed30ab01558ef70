// The sampling mode of `fabricbench nodes` (bench/node_sampling, bench/node_detection): its seeded
// schedule, the suspects' re-pairs with hosts known good, and the time of the default mode for 16, 128
// and 1024 hosts (how often the whole method names a slow host: test_fleet_sim.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "bench/node_detection.hpp"

namespace {

std::vector<fb::HostPair> flatten(const std::vector<fb::PairRound>& rounds) {
  std::vector<fb::HostPair> out;
  for (const auto& r : rounds) out.insert(out.end(), r.begin(), r.end());
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

TEST(NodeSampling, RepairsPutEachSuspectBesideAFreshHostKnownGood) {
  const fb::SamplingPlan plan{};
  const auto measured = flatten(fb::sampling_rounds(32, plan));
  const std::vector<int> suspects{4, 9};
  const std::vector<int> good{1, 2, 3, 5, 6, 7, 8, 10, 11, 12};
  const auto rounds = fb::repair_rounds(suspects, good, measured, plan);
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
      const int partner = (a == 4 || a == 9) ? b : a;
      EXPECT_NE(std::find(good.begin(), good.end(), partner), good.end()) << "a partner not known good";
    }
  }
  EXPECT_EQ(fb::repair_rounds(suspects, good, measured, plan), rounds) << "seeded";
  // Two suspects that met (a slow pair of two suspects) are split: neither is the other's partner.
  for (const auto& round : fb::repair_rounds({0, 1}, {2, 3, 4, 5}, {{0, 1}}, plan))
    for (const auto& [a, b] : round) EXPECT_FALSE(a == 0 && b == 1);
  // The suspect has met every good host: no partner is left.
  EXPECT_TRUE(fb::repair_rounds({0}, {1, 2}, {{0, 1}, {0, 2}}, plan).empty());
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
