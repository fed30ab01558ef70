// The slow node named (analyse/node_ranking) on synthetic pair figures, its findings' words and the
// exclude file's line (report/node_exclude).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "analyse/hosts/node_ranking.hpp"
#include "analyse/hosts/nodes_check.hpp"
#include "analyse/hosts/slow_threshold.hpp"
#include "analyse/judge.hpp"
#include "analyse/verdict/verdict_contract.hpp"
#include "bench/node_schedule.hpp"
#include "node_ranking_helpers.hpp"
#include "report/node_exclude.hpp"

namespace {

// A healthy pair reaches 48 GB/s within +-2% (deterministic jitter); a pair with a slow host is
// held to that host's share of it.
std::vector<fb::PairFigure> round_robin(int hosts, const std::map<int, double>& slow) {
  std::vector<fb::PairFigure> out;
  const auto rounds = fb::round_robin_rounds(hosts);
  for (std::size_t r = 0; r < rounds.size(); ++r)
    for (const auto& [a, b] : rounds[r]) {
      double f = 1.0;
      if (slow.contains(a)) f = std::min(f, slow.at(a));
      if (slow.contains(b)) f = std::min(f, slow.at(b));
      out.push_back({a, b, 48.0 * f * (1.0 + 0.02 * std::sin(a * 7.0 + b * 13.0)), static_cast<int>(r)});
    }
  return out;
}

std::vector<std::string> node_names(int hosts) {
  std::vector<std::string> out;
  for (int i = 1; i <= hosts; ++i) out.push_back((i < 10 ? "node0" : "node") + std::to_string(i));
  return out;
}

std::vector<fb::PairFigure> figures_of(const std::vector<double>& gbs) {
  std::vector<fb::PairFigure> out;
  for (std::size_t i = 0; i < gbs.size(); ++i) out.push_back({0, static_cast<int>(i) + 1, gbs[i], 1});
  return out;
}

}  // namespace

TEST(NodeRanking, NamesNoneOnAHealthyCluster) {
  for (const int n : {5, 16, 128}) {
    const auto r = fb::rank_hosts(round_robin(n, {}), {});
    EXPECT_TRUE(r.named.empty() && r.slow_links.empty() && r.findings.empty()) << n;
    EXPECT_FALSE(r.too_few_pairs);
    EXPECT_NEAR(r.reference_gbs, 48.0, 1.0);
    EXPECT_EQ(fb::exclude_line(r, node_names(n)), "\n");
  }
}

TEST(NodeRanking, NamesOnlyTheOneSlowHostThoughAllItsPairsAreSlow) {
  for (const int n : {5, 6, 16, 128}) {
    const int slow = n / 3;
    const auto r = fb::rank_hosts(round_robin(n, {{slow, 0.5}}), {});
    EXPECT_EQ(named_hosts(r), std::vector<int>{slow}) << n;
    ASSERT_EQ(r.named.size(), 1U);
    EXPECT_EQ(r.named[0].slow_pairs, n - 1);
    EXPECT_NEAR(r.named[0].share, 0.5, 0.02);
    EXPECT_TRUE(r.slow_links.empty()) << "its pairs are explained, not slow links";
  }
}

TEST(NodeRanking, TheSlowHostsEvidenceByHand) {
  // 6 hosts, 15 pairs at 48 GB/s but node03's five at 24 + its peer's index: median 48; a given slow
  // share (--slow-share 0.8).
  auto pairs = round_robin(6, {});
  for (auto& p : pairs) {
    if (p.a != 2 && p.b != 2) p.busbw_gbs = 48;
    if (p.a == 2 || p.b == 2) p.busbw_gbs = 24 + (p.a == 2 ? p.b : p.a);
  }
  const auto names = node_names(6);
  fb::RankingRule rule;
  rule.slow_share = 0.8;
  const auto r = fb::rank_hosts(pairs, names, rule);
  ASSERT_EQ(r.findings.size(), 1U);
  EXPECT_EQ(r.findings[0].code, "NODE_SLOW");
  EXPECT_EQ(r.findings[0].severity, fb::Severity::error);
  EXPECT_EQ(
      r.findings[0].evidence,
      "node03: 5 of its 5 pairs below 38.4 GB/s (80% of the reference 48.0 GB/s, the median of 15 pairs): "
      "with node01 24.0 GB/s (50%), with node02 25.0 GB/s (52%), with node04 27.0 GB/s (56%), with node05 "
      "28.0 GB/s (58%), with node06 29.0 GB/s (60%); its median 56% of the reference; its peers' 10 other "
      "pairs at 100-100%");
  EXPECT_EQ(r.findings[0].expected, "every pair at least 38.4 GB/s (80% of the reference)");
  EXPECT_EQ(fb::exclude_line(r, names), "node03\n");
}

TEST(NodeRanking, NamesTwoSlowHosts) {
  for (const int n : {8, 16, 128}) {
    const auto r = fb::rank_hosts(round_robin(n, {{0, 0.5}, {n - 1, 0.7}}), node_names(n));
    EXPECT_EQ(named_hosts(r), (std::vector<int>{0, n - 1})) << n;
    EXPECT_TRUE(r.slow_links.empty());
  }
  EXPECT_EQ(
      fb::exclude_line(fb::rank_hosts(round_robin(16, {{2, 0.5}, {4, 0.6}}), node_names(16)), node_names(16)),
      "node[03,05]\n");
}

TEST(NodeRanking, FewerThanTenPairsAreJudgedAgainstTheFastest) {
  // 5 of the 6 pairs touch a slow host, so their median is slow; the fastest pair (1-2) is
  // the reference (48 GB/s +-2%): hosts 0 and 3 have 3 of 3 slow pairs, hosts 1 and 2 two of 3, explained by
  // them.
  const auto pairs = round_robin(4, {{0, 0.5}, {3, 0.7}});
  const auto by_fastest = fb::rank_hosts(pairs, {});
  EXPECT_FALSE(by_fastest.too_few_pairs);
  EXPECT_EQ(by_fastest.reference_from, fb::ReferenceFrom::fastest);
  EXPECT_NEAR(by_fastest.reference_gbs, 48, 48 * 0.02);
  EXPECT_EQ(named_hosts(by_fastest), (std::vector<int>{0, 3}));
  EXPECT_TRUE(by_fastest.slow_links.empty());
  ASSERT_FALSE(by_fastest.findings.empty());
  EXPECT_NE(by_fastest.findings[0].evidence.find(
                fmt::format("the reference {:.1f} GB/s, the fastest of 6 pairs", by_fastest.reference_gbs)),
            std::string::npos)
      << by_fastest.findings[0].evidence;
  // One slow host of 4 (the fake-hosts case): named alone, its three peers not.
  EXPECT_EQ(named_hosts(fb::rank_hosts(round_robin(4, {{2, 0.1}}), {})), (std::vector<int>{2}));
  EXPECT_TRUE(fb::rank_hosts(round_robin(4, {}), {}).named.empty());
  // Against a given 48 GB/s: the same hosts.
  EXPECT_EQ(named_hosts(fb::rank_hosts(pairs, {}, reference_rule(48))), (std::vector<int>{0, 3}));
  // Two hosts, one pair: which end is slow cannot be told.
  const auto one_pair = fb::rank_hosts(round_robin(2, {{0, 0.5}}), {});
  EXPECT_TRUE(one_pair.too_few_pairs);
  EXPECT_TRUE(one_pair.named.empty());
  ASSERT_EQ(one_pair.findings.size(), 1U);
  EXPECT_EQ(one_pair.findings[0].code, "NODE_TOO_FEW_PAIRS");
}

TEST(NodeRanking, OneSlowLinkNamesThePairNotAHost) {
  auto pairs = round_robin(16, {});
  for (auto& p : pairs)
    if (p.a == 3 && p.b == 9) p.busbw_gbs = 20;
  const auto r = fb::rank_hosts(pairs, node_names(16));
  EXPECT_TRUE(r.named.empty());
  ASSERT_EQ(r.slow_links.size(), 1U);
  EXPECT_EQ(r.slow_links[0].a, 3);
  ASSERT_EQ(r.findings.size(), 1U);
  EXPECT_EQ(r.findings[0].code, "NODE_SLOW_LINK");
  EXPECT_EQ(r.findings[0].evidence.rfind("node04-node10: 20.0 GB/s is 42% of the reference 4", 0), 0U)
      << r.findings[0].evidence;
  EXPECT_EQ(fb::exclude_line(r, node_names(16)), "\n");
}

TEST(NodeRanking, OnePairCannotTellWhichHostIsSlow) {
  const std::vector<fb::PairFigure> pairs{{0, 1, 20, 0}, {2, 3, 48, 0}, {2, 4, 48, 1}, {3, 4, 47, 2}};
  const auto r = fb::rank_hosts(pairs, {}, reference_rule(48));
  EXPECT_TRUE(r.named.empty() && r.slow_links.empty());
  ASSERT_EQ(r.undecided.size(), 1U);
  ASSERT_EQ(r.findings.size(), 1U);
  EXPECT_EQ(r.findings[0].code, "NODE_TOO_FEW_PAIRS");
  EXPECT_NE(r.findings[0].evidence.find("host 0-host 1 20.0 GB/s"), std::string::npos)
      << r.findings[0].evidence;
  EXPECT_TRUE(fb::rank_hosts({}, {}).too_few_pairs);
}

// The default threshold: 5% below the reference, or 4 of the healthy pairs' spreads where they spread
// wider (analyse/hosts/slow_threshold). Healthy pairs at 48 GB/s +-2% (a sine: its lower quartile 1.41%
// of 48 below, a spread near 2.1%): a host 10% slower is named, which a fixed 80% would not.
TEST(NodeRanking, TheThresholdFollowsThePairsSpread) {
  const auto healthy = fb::rank_hosts(round_robin(16, {}), node_names(16));
  EXPECT_GT(healthy.spread, 0.005);
  EXPECT_LT(healthy.spread, 0.03);
  EXPECT_DOUBLE_EQ(healthy.slow_share, fb::slow_share_from_spread(healthy.spread));
  EXPECT_TRUE(healthy.findings.empty());
  const auto r = fb::rank_hosts(round_robin(16, {{6, 0.9}}), node_names(16));
  EXPECT_EQ(named_hosts(r), std::vector<int>{6});
  ASSERT_EQ(r.findings.size(), 1U);
  EXPECT_NE(r.findings[0].evidence.find("; a healthy host shows as many slow pairs less than once in 10^9"),
            std::string::npos)
      << r.findings[0].evidence;
  fb::RankingRule fixed;
  fixed.slow_share = 0.8;
  EXPECT_TRUE(fb::rank_hosts(round_robin(16, {{6, 0.9}}), node_names(16), fixed).named.empty());
}

// A host slow now and then: slow in its pairs with node02 and node10 only (2 of 15), each partner's
// other pairs healthy. Two slow links that share it name it, not the links.
TEST(NodeRanking, SlowLinksSharingOneHostNameThatHost) {
  auto pairs = round_robin(16, {});
  for (auto& p : pairs)
    if ((p.a == 1 && p.b == 5) || (p.a == 5 && p.b == 9)) p.busbw_gbs = 30;
  const auto r = fb::rank_hosts(pairs, node_names(16));
  ASSERT_EQ(named_hosts(r), std::vector<int>{5});
  EXPECT_TRUE(r.named[0].intermittent);
  EXPECT_EQ(r.named[0].slow_pairs, 2);
  EXPECT_TRUE(r.slow_links.empty());
  ASSERT_EQ(r.findings.size(), 1U);
  EXPECT_EQ(r.findings[0].evidence.rfind("node06: 2 of its 15 pairs below", 0), 0U) << r.findings[0].evidence;
  EXPECT_NE(r.findings[0].evidence.find("slow now and then"), std::string::npos);
}

TEST(NodeRanking, HealthySpreadIsTheLowerQuartileOfThePairsAtOrAboveTheSlowFloor) {
  // 14 pairs: 10 at 95..104 and 4 slow ones at 80, which the 5% floor below the reference 99
  // (94.05) leaves out. Left: median 99.5, lower quartile 97.25 (at 2.25 of 0..9):
  // (99.5 - 97.25) / 99.5 / 0.6745 = 3.35%.
  const auto pairs = figures_of({80, 80, 80, 80, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104});
  EXPECT_NEAR(fb::healthy_spread(pairs, 99), (99.5 - 97.25) / 99.5 / 0.6745, 1e-12);
  EXPECT_EQ(fb::healthy_spread(pairs, 120), 0) << "no pair within 5% of a reference of 120: too few to say";
  EXPECT_EQ(fb::healthy_spread(figures_of({100, 100, 100}), 100), 0) << "too few pairs to say";
}

TEST(NodeRanking, SlowShareIsFourSpreadsBelowButNeverLessThanFivePercent) {
  EXPECT_DOUBLE_EQ(fb::slow_share_from_spread(0.003), 0.95);  // the fake hosts' 0.6% range: the floor
  EXPECT_DOUBLE_EQ(fb::slow_share_from_spread(0.02), 0.92);
  EXPECT_DOUBLE_EQ(fb::slow_share_from_spread(0.5), 0.5) << "below half a pair is slow whatever the spread";
}

// The doctor's rounds stopped after the first (its budget): every host in one pair, none judged. The
// document says so, and the nodes check is UNKNOWN, not PASS.
TEST(NodeRanking, HostsLeftWithFewerThanTwoPairsAreSaidNotJudged) {
  fb::Result r;
  r.status = fb::RunStatus::complete;
  fb::NodesInfo n;
  n.mode = "round robin";
  n.reference_gbps = 0.9;
  n.slow_below_gbps = 0.855;
  n.pairs = {{"fbhost0", "fbhost5", 1, 0.9, 18600, ""},
             {"fbhost1", "fbhost4", 1, 0.9, 18600, ""},
             {"fbhost2", "fbhost3", 1, 0.9, 18600, ""}};
  n.cut = "stopped after round 1 of 5: the next would not fit the time left (1.3 s a round)";
  r.nodes = n;
  const auto findings = fb::check_nodes(r);
  ASSERT_EQ(findings.size(), 1U);
  EXPECT_EQ(findings[0].code, "NODE_NOT_JUDGED");
  EXPECT_EQ(findings[0].evidence,
            "the pairs of hosts stopped after round 1 of 5: the next would not fit the time left (1.3 s a "
            "round): 6 of 6 hosts (fbhost[0-5]) measured in fewer than 2 pairs were not judged: that none of "
            "them is named says nothing of them");
  fb::judge(r);
  const auto nodes = std::find_if(r.verdict->checks.begin(), r.verdict->checks.end(),
                                  [](const fb::CheckVerdict& c) { return c.check == "nodes"; });
  ASSERT_NE(nodes, r.verdict->checks.end());
  EXPECT_EQ(nodes->status, fb::CheckStatus::unknown);
  r.nodes->cut.clear();  // not cut: nothing more is said of these pairs (none slow)
  EXPECT_TRUE(fb::check_nodes(r).empty());
}
