#pragma once
// Which GPUs a job of `count` GPUs should use. best: the group whose weakest pair is the
// strongest (fabric over PCIe switch over host bridge over socket; then more links), kept on
// as few NUMA nodes as possible. worst: the opposite, spread over sockets and switches, as a
// careless scheduler might place it. Ties go to the lowest GPU indices.
#include <vector>

#include "model/topology.hpp"

namespace fb {

enum class Placement { best, worst };

// Throws Error(usage) when count is not in 1..number of GPUs.
std::vector<int> choose_gpus(const Topology& t, int count, Placement placement);

// Rank of a pair's connection for placement: fabric 5, PIX 4, PXB 3, PHB 2, NODE 1, SYS 0.
int connection_rank(const Connection& connection);

}  // namespace fb
