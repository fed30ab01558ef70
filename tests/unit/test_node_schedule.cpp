// The round-robin schedule of `fabricbench nodes` (bench/node_schedule): every pair once, every
// host busy in every round.
#include <gtest/gtest.h>

#include <set>

#include "bench/node_schedule.hpp"

TEST(NodeSchedule, RoundRobinMeetsEveryPairOnceWithEveryHostBusy) {
  for (const int n : {2, 3, 4, 5, 7, 8, 16, 17, 128, 129, 1024}) {
    const auto rounds = fb::round_robin_rounds(n);
    EXPECT_EQ(static_cast<int>(rounds.size()), fb::round_count(n)) << n;
    EXPECT_EQ(fb::round_count(n), n % 2 == 0 ? n - 1 : n);
    std::set<std::pair<int, int>> seen;
    for (const auto& round : rounds) {
      std::set<int> busy;
      for (const auto& [a, b] : round) {
        ASSERT_LT(a, b);
        ASSERT_TRUE(busy.insert(a).second && busy.insert(b).second) << "a host twice in one round, n=" << n;
        ASSERT_TRUE(seen.insert({a, b}).second) << "pair measured twice, n=" << n;
      }
      // Even: every host busy; odd: exactly one bye.
      EXPECT_EQ(static_cast<int>(busy.size()), n % 2 == 0 ? n : n - 1) << n;
    }
    EXPECT_EQ(static_cast<long>(seen.size()), static_cast<long>(n) * (n - 1) / 2) << n;
  }
  EXPECT_TRUE(fb::round_robin_rounds(1).empty());
  EXPECT_EQ(fb::round_count(1), 0);
}

TEST(NodeSchedule, FourHostsByHand) {
  // Circle 0 1 2 3: (0,3)(1,2); rotate -> 0 3 1 2: (0,2)(3,1); rotate -> 0 2 3 1: (0,1)(2,3).
  const std::vector<fb::PairRound> expected{{{0, 3}, {1, 2}}, {{0, 2}, {1, 3}}, {{0, 1}, {2, 3}}};
  EXPECT_EQ(fb::round_robin_rounds(4), expected);
}

TEST(NodeSchedule, CircleRoundsOfAnOrderGiveDistinctPeers) {
  const std::vector<int> order{5, 2, 7, 0, 3, 1};
  const auto rounds = fb::circle_rounds(order, 2);
  ASSERT_EQ(rounds.size(), 2U);
  EXPECT_EQ(rounds[0], (fb::PairRound{{1, 5}, {2, 3}, {0, 7}}));
  std::set<fb::HostPair> seen;
  for (const auto& r : rounds)
    for (const auto& p : r) EXPECT_TRUE(seen.insert(p).second);
  EXPECT_EQ(fb::circle_rounds(order, 99).size(), 5U);  // never more than the full round robin
}
