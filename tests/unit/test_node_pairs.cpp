// The round-robin schedule of `fabricbench nodes` and the bad-node inference, on synthetic pair
// results for 4-1024 hosts with 0, 1 and 2 bad hosts.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

#include "engine/node_pairs.hpp"

namespace {

// A healthy pair reaches 48 GB/s within +-2% (deterministic jitter); a pair with a bad host is
// held to that host's fraction of it.
std::vector<fb::PairMeasurement> synthetic(int hosts, const std::map<int, double>& bad) {
  std::vector<fb::PairMeasurement> out;
  for (const auto& round : fb::round_robin_rounds(hosts))
    for (const auto& [a, b] : round) {
      double f = 1.0;
      if (bad.contains(a)) f = std::min(f, bad.at(a));
      if (bad.contains(b)) f = std::min(f, bad.at(b));
      out.push_back({{a, b}, 48.0 * f * (1.0 + 0.02 * std::sin(a * 7.0 + b * 13.0))});
    }
  return out;
}

}  // namespace

TEST(NodePairs, RoundRobinMeetsEveryPairOnceWithEveryHostBusy) {
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
}

TEST(NodePairs, ScheduleTimeIsRoundsTimesTheRound) {
  EXPECT_DOUBLE_EQ(fb::schedule_seconds(16, 3.0), 45.0);
  EXPECT_DOUBLE_EQ(fb::schedule_seconds(128, 3.0), 381.0);
  EXPECT_DOUBLE_EQ(fb::schedule_seconds(1024, 3.0), 3069.0);
  EXPECT_DOUBLE_EQ(fb::schedule_seconds(5, 2.0), 10.0);
}

TEST(NodePairs, NamesNoHostOnAHealthyCluster) {
  for (const int n : {4, 5, 16, 128, 1024}) {
    const auto f = fb::find_bad_nodes(synthetic(n, {}));
    EXPECT_TRUE(f.slow.empty()) << n;
    EXPECT_TRUE(f.suspects.empty()) << n;
    EXPECT_NEAR(f.median_gbs, 48.0, 1.0);
  }
}

TEST(NodePairs, NamesTheOneBadHost) {
  for (const int n : {4, 5, 6, 16, 128, 1024}) {
    const int bad = n / 3;
    const auto f = fb::find_bad_nodes(synthetic(n, {{bad, 0.5}}));
    EXPECT_EQ(f.suspects, std::vector<int>{bad}) << n;
    EXPECT_EQ(static_cast<int>(f.slow.size()), n - 1) << n;  // every pair of the bad host, no other
    EXPECT_TRUE(f.ranked.front().pair.first == bad || f.ranked.front().pair.second == bad);
  }
}

TEST(NodePairs, NamesBothBadHostsEvenWhenMostPairsAreSlow) {
  // With 4 hosts, 5 of the 6 pairs touch a bad host: the median is slow, the reference is not.
  for (const int n : {4, 5, 6, 16, 128, 1024}) {
    const auto f = fb::find_bad_nodes(synthetic(n, {{0, 0.5}, {n - 1, 0.8}}));
    EXPECT_EQ(f.suspects, (std::vector<int>{0, n - 1})) << n;
    EXPECT_EQ(static_cast<int>(f.slow.size()), 2 * (n - 1) - 1) << n;
    EXPECT_NEAR(f.reference_gbs, 48.0, 1.0) << n;
  }
}

TEST(NodePairs, OneSlowLinkNamesBothEndsOnly) {
  auto pairs = synthetic(16, {});
  for (auto& p : pairs)
    if (p.pair == fb::HostPair{3, 9}) p.busbw_gbs = 20;
  const auto f = fb::find_bad_nodes(pairs);
  EXPECT_EQ(f.suspects, (std::vector<int>{3, 9}));
  ASSERT_EQ(f.slow.size(), 1U);
  EXPECT_DOUBLE_EQ(f.slow[0].busbw_gbs, 20);
}
