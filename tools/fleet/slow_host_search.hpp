#pragma once
// How the slow hosts of a job are found among many (docs/nodes.md, "Finding the slow host at any
// size"): the full round robin while it fits; past it, a first pass in which every host meets a few
// random peers, then every suspect re-paired with hosts the first pass found good, and all the pairs
// ranked again against the first pass's reference. What measures a round is a callback: real pairs
// of hosts in a job (`nodes`, the doctor), or the fleet simulator's model (tools/fleet).
#include <functional>
#include <string>
#include <vector>

#include "analyse/hosts/node_ranking.hpp"
#include "bench/node_sampling.hpp"

namespace fb {

// Measures `rounds`, numbered from `first`, appending one figure per pair it measured; false when a
// round failed or was interrupted (the search then ranks what it has and stops).
using MeasureRounds =
    std::function<bool(const std::vector<PairRound>& rounds, int first, std::vector<PairFigure>& figures)>;

// A pair is slow below the reference less the larger of these: healthy machines of one kind differ by
// up to +-3% and one machine's runs by +-1% (docs/verdicts.md, "tolerance below a typical expectation"),
// so a drop of 5% is the least that says more than the spread between healthy hosts ...
inline constexpr double kMinSlowDrop = 0.05;
// ... and 4 of the pairs' own standard deviations, where the pairs spread wider than that (a healthy
// pair falls that far below in 3 of 100,000 figures).
inline constexpr double kSpreadsBelow = 4.0;

// A host in this many slow links (each with a partner whose other pairs are healthy) is named: slow now
// and then, as a flaky host is. Two slow pairs of a healthy host, each 4 spreads below, come about
// once in 10^9 pairs of pairs.
inline constexpr int kIntermittentPartners = 2;

// The relative spread of the healthy pairs below their median, (median - lower quartile) / median /
// 0.6745 (a normal figure's standard deviation), over the pairs at or above the reference less
// kMinSlowDrop (the slow pairs left out first, so that they do not widen it). 0 where fewer than
// kMinPairsForMedian pairs are left (too few to say).
double healthy_spread(const std::vector<PairFigure>& pairs, double reference_gbs);

// The share of the reference below which a pair is slow, from the pairs' spread.
double slow_share_from_spread(double spread);

// How each host was measured: its pairs in the first pass (or the round robin), its re-pairs with
// hosts already known good, and how many of all its pairs were slow.
struct HostMeasured {
  int first_pairs = 0;
  int known_good_pairs = 0;
  int slow_pairs = 0;
};

struct SearchOutcome {
  NodeRanking ranking;  // over every pair measured, against the first pass's reference
  std::vector<PairFigure> figures;
  std::vector<HostMeasured> hosts;
  std::vector<int> suspects;  // after the first pass
  int known_good = 0;         // hosts the first pass found good (every pair healthy)
  int rounds = 0;
  double spread = 0;  // healthy_spread of the first pass
  bool complete = true;
};

// `rule.slow_share` <= 0: from the first pass's spread (slow_share_from_spread).
SearchOutcome search_round_robin(int hosts, const std::vector<std::string>& names, const RankingRule& rule,
                                 const MeasureRounds& measure);
SearchOutcome search_sampled(int hosts, const std::vector<std::string>& names, const SamplingPlan& plan,
                             const RankingRule& rule, const MeasureRounds& measure);

}  // namespace fb
