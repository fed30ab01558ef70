#pragma once
// Warnings about the wiring, each a finding with evidence and a hint (docs/model.md lists them):
//   TOPO_PCIE_WIDTH_DOWN   a GPU's PCIe link trained narrower than it can (warning)
//   TOPO_PCIE_SPEED_DOWN   ... slower than it can (info: GPUs lower it when idle)
//   TOPO_NVLINK_DOWN       NVLinks inactive on a GPU (error)
//   TOPO_NVLINK_UNEVEN     a GPU with fewer active NVLinks than its peers (warning)
//   TOPO_NO_P2P            a pair without peer access: NCCL stages through host memory (error)
//   TOPO_HOST_PATH         a pair with no GPU fabric whose path crosses host bridges (info) or
//                          sockets (warning)
//   TOPO_NUMA_SPREAD       GPUs on several NUMA nodes (warning when some pair has no fabric
//                          link between nodes, else info)
#include <vector>

#include "core/result.hpp"
#include "core/topology.hpp"

namespace fb {

std::vector<Finding> check_topology(const Topology& t);

}  // namespace fb
