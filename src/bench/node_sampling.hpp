#pragma once
// The sampling mode of `fabricbench nodes` for jobs too large for the full round robin
// (docs/nodes.md, "Sampling"): in each of `passes` passes the hosts are shuffled and meet `peers`
// peers each (the first rounds of the round robin over the shuffled order), then every suspect is
// re-paired with `retest_peers` hosts the first pass found good that it has not met. Seeded with our own
// shuffle on std::mt19937_64 (whose output the standard fixes), so a seed gives the same pairs everywhere.
#include <cstdint>
#include <vector>

#include "bench/node_schedule.hpp"

namespace fb {

struct SamplingPlan {
  int peers = 2;         // k: peers per host per pass, one round each
  int passes = 3;        // passes, each over a fresh shuffle
  int retest_peers = 4;  // m: fresh peers per suspect in the re-test
  std::uint64_t seed = 1;
};

// passes x peers rounds; every host is busy in each (one bye per round for an odd count).
std::vector<PairRound> sampling_rounds(int hosts, const SamplingPlan& plan);

// Up to retest_peers rounds pairing each suspect with a host of `partners` (the hosts a first pass found
// good, so that a slow re-pair can only be the suspect's) that it did not meet in `measured`, each
// partner in one pair per round; a suspect left without such a partner in a round sits it out. Two
// suspects that met are split this way, each half beside a good host: the bisection of a slow pair.
std::vector<PairRound> repair_rounds(const std::vector<int>& suspects, const std::vector<int>& partners,
                                     const std::vector<HostPair>& measured, const SamplingPlan& plan);

}  // namespace fb
