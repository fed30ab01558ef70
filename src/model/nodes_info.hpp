#pragma once
// What `fabricbench nodes` measured (the document's `nodes`, 1.3): pairs of hosts in rounds,
// the reference they were judged against and the hosts named (docs/nodes.md).
#include <cstdint>
#include <string>
#include <vector>

namespace fb {

struct NodePair {
  std::string a, b;  // the two hosts
  int round = 0;     // 1-based
  double busbw_gbps = 0;
  double time_us = 0;   // the median operation time
  std::string failure;  // why the pair has no figure; "" when measured
};

// How one host was measured (1.6): its pairs in the round robin or the search's first pass, its re-pairs
// with hosts the first pass found good, how many of all its pairs were slow, and for a named host how
// sure the naming is.
struct NodeHost {
  std::string name;
  int first_pairs = 0;
  int known_good_pairs = 0;
  int slow_pairs = 0;
  // Named: the chance that a healthy host, its pairs spread as the healthy pairs do, shows as many slow
  // pairs of as many; -1 where the spread is unknown or the host is not named.
  double healthy_chance = -1;
};

struct NodesInfo {
  std::string mode;  // "round robin" | "sampling"
  std::string collective;
  std::uint64_t bytes = 0;
  int rounds_planned = 0;
  double seconds_per_round = 0;  // measured: the rounds' wall time / rounds run
  double reference_gbps = 0;
  std::string reference_from;  // "given", "the median of N pairs", "the fastest of N pairs"
  double slow_below_gbps = 0;
  std::vector<NodePair> pairs;
  std::vector<std::string> named;  // the hosts named slow, in host order
  std::string exclude;             // the named hosts as one Slurm hostlist ("" none)
  double spread = 0;               // 1.6: the healthy pairs' relative spread the threshold took (0: unknown)
  std::vector<NodeHost> hosts;     // 1.6: each host, in the job's order
  std::string cut;                 // 1.6: why the rounds stopped before the last planned ("" they did not)
};

}  // namespace fb
