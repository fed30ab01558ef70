#pragma once
// How the slow hosts of a job are found among many (docs/nodes.md, "Finding the slow host at any
// size"): the full round robin while it fits; past it, a first pass in which every host meets a few
// random peers, then every suspect re-paired with hosts the first pass found good (a slow pair of two
// suspects split, each half beside a good host), and every pair ranked again against the first pass's
// reference and threshold. What measures a round is a callback: real pairs of hosts in a job (`nodes`,
// the doctor: engine/commands/nodes_rounds), or the fleet simulator's model (tools/fleet).
#include <functional>
#include <string>
#include <vector>

#include "analyse/hosts/node_ranking.hpp"
#include "bench/node_sampling.hpp"

namespace fb {

// Measures `rounds`, numbered from `first`, appending one figure per pair it measured; false when it
// stopped before the last (a round failed, Ctrl-C, or the doctor's budget): the search then ranks what
// it has and stops.
using MeasureRounds =
    std::function<bool(const std::vector<PairRound>& rounds, int first, std::vector<PairFigure>& figures)>;

// How each host was measured: its pairs in the first pass (or the round robin), its re-pairs with
// hosts already known good, and how many of all its pairs were slow.
struct HostMeasured {
  int first_pairs = 0;
  int known_good_pairs = 0;
  int slow_pairs = 0;
};

struct SearchOutcome {
  NodeRanking ranking;  // over every pair measured, against the first pass's reference and threshold
  std::vector<PairFigure> figures;
  std::vector<HostMeasured> hosts;  // by host index
  std::vector<int> suspects;        // after the first pass (the search only)
  int known_good = 0;               // hosts the first pass found good (every pair healthy)
  int rounds = 0;                   // rounds measured
  bool complete = true;             // every planned round measured
};

SearchOutcome search_round_robin(int hosts, const std::vector<std::string>& names, const RankingRule& rule,
                                 const MeasureRounds& measure);
SearchOutcome search_sampled(int hosts, const std::vector<std::string>& names, const SamplingPlan& plan,
                             const RankingRule& rule, const MeasureRounds& measure);

}  // namespace fb
