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
};

}  // namespace fb
