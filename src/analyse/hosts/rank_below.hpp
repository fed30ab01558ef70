#pragma once
// How unlikely a host's pairs are to rank as low as they do among its peers' other pairs, were it healthy
// (docs/nodes.md, "Ranked below its peers"): the one-sided Mann-Whitney test. It needs no model of the
// pairs' spread, so it holds where what runs beside a pair spreads healthy pairs wide and in steps (hosts
// sharing one machine), where a threshold of a few spreads cannot tell a host slow in every pair.
#include <vector>

namespace fb {

// A healthy host's pairs rank this low less than once in 10^6: among 1,024 hosts, a healthy one is named
// this way about once in a thousand runs.
inline constexpr double kRankBelowChance = 1e-6;

// The chance that `mine` (a host's pairs) rank at least as low among `others` (its peers' other pairs) if
// all were alike: exact by counting the orderings while that is cheap, else the normal approximation with
// a continuity correction. Ties count half. 1 where either list is empty.
double rank_below_chance(const std::vector<double>& mine, const std::vector<double>& others);

}  // namespace fb
