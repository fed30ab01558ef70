#pragma once
// The GPUs a result document judges: those its runs and p2p figures used (a job on GPUs 0-1 of an
// 8-GPU machine is judged on GPUs 0-1, their pair and their NUMA nodes). Rules that speak about
// the rest of the machine say so in their evidence.
#include <vector>

#include "model/result.hpp"
#include "model/topology.hpp"

namespace fb {

// Sorted GPU indices of the runs and p2p figures; when there are none (a topology-only document),
// the GPUs listed in the document, else every GPU of the topology.
std::vector<int> run_gpus(const Result& r);

// The topology cut to `gpus`: their entries and the pairs with both ends among them.
Topology scoped_topology(const Topology& t, const std::vector<int>& gpus);

}  // namespace fb
