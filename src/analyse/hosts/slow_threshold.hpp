#pragma once
// Where a pair of hosts is slow (docs/nodes.md, "When a pair is slow"): below the reference less the
// larger of a floor and 4 of the healthy pairs' own spreads, so that the threshold follows what the
// pairs measured rather than a fixed share.
#include <vector>

#include "analyse/hosts/node_ranking.hpp"

namespace fb {

// Healthy machines of one kind differ by up to +-3% and one machine's runs by +-1% (docs/verdicts.md,
// "tolerance below a typical expectation"): a drop of 5% is the least that says more than the spread
// between healthy hosts ...
inline constexpr double kMinSlowDrop = 0.05;
// ... and 4 of the pairs' own standard deviations where they spread wider (a healthy pair falls that far
// below in 3 of 100,000 figures).
inline constexpr double kSpreadsBelow = 4.0;
// Below half of the reference a pair is slow whatever the spread.
inline constexpr double kLeastSlowShare = 0.5;

// The relative spread of the healthy pairs below their median, (median - lower quartile) / median /
// 0.6745 (a normal figure's standard deviation), over the pairs at or above the reference less
// kMinSlowDrop (the slow pairs left out first, so that they do not widen it). 0 where fewer than
// kMinPairsForMedian pairs are left (too few to say).
double healthy_spread(const std::vector<PairFigure>& pairs, double reference_gbs);

// The share of the reference below which a pair is slow, from the pairs' spread.
double slow_share_from_spread(double spread);

// The chance that one healthy pair is measured below the threshold, for a spread and slow share
// (the normal tail 1 - slow_share spreads below); -1 where the spread is unknown (0).
double healthy_pair_slow_chance(double spread, double slow_share);

// The chance that a healthy host shows at least `slow` slow pairs of `pairs`, each slow with
// `pair_chance` on its own (the binomial tail); -1 where pair_chance is unknown.
double healthy_host_chance(int pairs, int slow, double pair_chance);

}  // namespace fb
