#pragma once
// The slow node named (`fabricbench nodes`, docs/nodes.md "Ranking"): pairs of hosts measured
// against a healthy reference, the hosts common to the slow pairs named with their figures.
//   NODE_SLOW            a host most of whose pairs are slow while its peers' other pairs are not (error)
//   NODE_SLOW_LINK       a slow pair between two hosts that are otherwise healthy (warning)
//   NODE_TOO_FEW_PAIRS   too few pairs to tell a slow host from its peers (info)
#include <string>
#include <vector>

#include "model/result.hpp"

namespace fb {

struct PairFigure {
  int a = 0;  // host indices into the ranking's names
  int b = 0;
  double busbw_gbs = 0;
  int round = 0;
};

struct RankingRule {
  // A pair is slow below this share of the reference: a healthy pair's busbw varies by a few %
  // between runs, a host with one of 8 NICs down or a link trained down loses 12% or more.
  double slow_share = 0.8;
  double reference_gbs = 0;    // 0: the median of the pairs
  int min_pairs_per_host = 2;  // one pair cannot tell which of its two hosts is slow
};

// Without a given reference, the median is healthy only while fewer than half of the pairs are
// slow: one slow host of n has n-1 of the n(n-1)/2 pairs of the round robin, under half from 5 hosts.
constexpr std::size_t kMinPairsForMedian = 10;
// Below that, the fastest pair is the reference (3 or 4 hosts: one healthy pair suffices, and a
// healthy pair is within a few % of it); one pair (2 hosts) cannot tell which of its hosts is slow.
constexpr std::size_t kMinPairsForFastest = 3;

enum class ReferenceFrom { given, median, fastest };

struct NamedHost {
  int host = 0;
  std::vector<PairFigure> pairs;  // its pairs, slowest first
  int slow_pairs = 0;
  double share = 0;    // the median of its pairs / the reference
  int peer_pairs = 0;  // its peers' other pairs (none with a named host)
  double peer_min_share = 0, peer_max_share = 0;
};

struct NodeRanking {
  double reference_gbs = 0;
  bool reference_given = false;
  ReferenceFrom reference_from = ReferenceFrom::median;
  double slow_below_gbs = 0;
  bool too_few_pairs = false;
  std::vector<NamedHost> named;        // in the order named: the largest share of slow pairs first
  std::vector<PairFigure> slow_links;  // slow pairs no named host explains, both ends judged
  std::vector<PairFigure> undecided;   // slow pairs with an end of too few pairs to tell
  std::vector<Finding> findings;
};

// `names`: a host's name by its index ("host 3" where there is none).
NodeRanking rank_hosts(const std::vector<PairFigure>& pairs, const std::vector<std::string>& names,
                       const RankingRule& rule = {});

// The names of the named hosts, in host order (for the exclude file).
std::vector<std::string> named_host_names(const NodeRanking& ranking, const std::vector<std::string>& names);

}  // namespace fb
