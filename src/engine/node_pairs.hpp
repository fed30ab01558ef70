#pragma once
// Finding the bad node of a cluster (`fabricbench nodes`): every pair of hosts is measured once,
// in rounds where every host is busy (the round-robin "circle" schedule), and the hosts common
// to the slow pairs are named. Pure functions, tested on synthetic pair results.
#include <string>
#include <utility>
#include <vector>

namespace fb {

using HostPair = std::pair<int, int>;  // host indices, first < second

// The rounds of a round-robin over `hosts` hosts: n-1 rounds of n/2 pairs for even n; for odd n,
// n rounds where one host sits out (a bye). Every pair appears exactly once.
std::vector<std::vector<HostPair>> round_robin_rounds(int hosts);

// Rounds and the time they take at `seconds_per_round` (communicator set-up and the measurement
// of one pair; the pairs of a round run at the same time).
int round_count(int hosts);
double schedule_seconds(int hosts, double seconds_per_round);

struct PairMeasurement {
  HostPair pair;
  double busbw_gbs = 0;
};

struct NodeFindings {
  double median_gbs = 0;
  double reference_gbs = 0;             // the 90th percentile of the pairs: what a healthy pair reaches
  std::vector<PairMeasurement> ranked;  // slowest first
  std::vector<PairMeasurement> slow;    // below slow_fraction x reference
  std::vector<int> suspects;            // hosts the slow pairs have in common, ascending
};

// A pair is slow below `slow_fraction` of the reference (the 90th percentile, not the median: with
// 2 bad hosts of 4-6, most pairs touch one and the median is itself slow). Suspects are found
// greedily: the host in the most slow pairs (all such hosts on a tie) is named, its pairs are set
// aside, and so on while slow pairs remain.
NodeFindings find_bad_nodes(const std::vector<PairMeasurement>& pairs, double slow_fraction = 0.9);

}  // namespace fb
