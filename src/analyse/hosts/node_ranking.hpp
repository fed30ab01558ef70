#pragma once
// The slow node named (`fabricbench nodes`, docs/nodes.md "Ranking"): pairs of hosts measured
// against a healthy reference, the hosts common to the slow pairs named with their figures.
//   NODE_SLOW            a host most of whose pairs are slow while its peers' other pairs are not, or one in
//                        slow pairs with 2 partners that are otherwise healthy (slow now and then) (error)
//   NODE_SLOW_LINK       a slow pair between two hosts that are otherwise healthy (warning)
//   NODE_TOO_FEW_PAIRS   too few pairs to tell a slow host from its peers (info)
#include <optional>
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

enum class ReferenceFrom { given, median, fastest };

struct RankingRule {
  // A pair is slow below this share of the reference; 0: from the pairs' own spread
  // (analyse/hosts/slow_threshold: 5% below, or 4 spreads where the pairs spread wider).
  double slow_share = 0;
  double reference_gbs = 0;    // 0: the median of the pairs
  int min_pairs_per_host = 2;  // one pair cannot tell which of its two hosts is slow
  // A reference, spread and threshold an earlier ranking took (the search's first pass, of
  // `reference_pairs` pairs), given with them to be said as that ranking said them.
  std::optional<ReferenceFrom> reference_from;
  std::size_t reference_pairs = 0;
  double spread = 0;
};

// Without a given reference, the median is healthy only while fewer than half of the pairs are
// slow: one slow host of n has n-1 of the n(n-1)/2 pairs of the round robin, under half from 5 hosts.
constexpr std::size_t kMinPairsForMedian = 10;
// Below that, the fastest pair is the reference (3 or 4 hosts: one healthy pair suffices, and a
// healthy pair is within a few % of it); one pair (2 hosts) cannot tell which of its hosts is slow.
constexpr std::size_t kMinPairsForFastest = 3;

// A host in slow pairs with this many partners that are otherwise healthy is named although most of its
// pairs are not slow: slow now and then, as a flaky host is (two such pairs of a healthy host, each 4
// spreads below, come about once in 10^9).
inline constexpr int kIntermittentPartners = 2;

struct NamedHost {
  int host = 0;
  std::vector<PairFigure> pairs;  // its pairs, slowest first
  int slow_pairs = 0;
  bool intermittent = false;   // named for slow pairs with otherwise healthy partners, not a majority
  double healthy_chance = -1;  // the chance a healthy host shows as many slow pairs (-1: unknown)
  double share = 0;            // the median of its pairs / the reference
  int peer_pairs = 0;          // its peers' other pairs (none with a named host)
  double peer_min_share = 0, peer_max_share = 0;
};

struct NodeRanking {
  double reference_gbs = 0;
  bool reference_given = false;
  ReferenceFrom reference_from = ReferenceFrom::median;
  double slow_below_gbs = 0;
  double slow_share = 0;            // slow_below_gbs / reference_gbs: the rule's, or from the spread
  double spread = 0;                // the healthy pairs' relative spread (slow_threshold); 0: too few pairs
  std::size_t reference_pairs = 0;  // the pairs the reference was taken from
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
