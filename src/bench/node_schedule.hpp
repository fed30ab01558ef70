#pragma once
// Which pairs of hosts `fabricbench nodes` measures together (docs/nodes.md): the full round robin,
// where every pair is measured once in rounds that keep every host busy. A round is the unit the
// time is priced in: one pair per host, all pairs of the round at the same time.
#include <utility>
#include <vector>

namespace fb {

using HostPair = std::pair<int, int>;  // host indices, first < second
using PairRound = std::vector<HostPair>;

// The rounds of a round-robin over `hosts` hosts: n-1 rounds of n/2 pairs for even n; for odd n,
// n rounds where one host sits out (a bye). Every pair appears exactly once.
std::vector<PairRound> round_robin_rounds(int hosts);

// The first `rounds` rounds of the round robin over `order` (host indices): each host meets
// `rounds` distinct peers. The sampling mode takes a few rounds of a shuffled order.
std::vector<PairRound> circle_rounds(const std::vector<int>& order, int rounds);

int round_count(int hosts);

// Under 10 pairs (4 hosts or fewer) the round robin is measured twice: the pairs are too few to give
// their own spread, and a pair's two figures give it (and the better of the two, as contention and
// stalls only ever slow a pair).
int round_robin_passes(int hosts);
// The rounds the round robin takes, every pass counted.
int round_robin_round_count(int hosts);

}  // namespace fb
