#pragma once
// Warnings about the wiring, each a finding with evidence and a hint (docs/model.md lists them):
//   TOPO_PCIE_WIDTH_DOWN   a GPU's PCIe link trained narrower than it can (info; analyse/ raises it
//                          to a warning when host copies show the slowness)
//   TOPO_PCIE_SPEED_DOWN   ... slower than it can (info: GPUs lower it when idle)
//   TOPO_NVLINK_DOWN       NVLinks inactive on a GPU (error)
//   TOPO_NVLINK_UNEVEN     a GPU with fewer active NVLinks than its peers (warning)
//   TOPO_NO_P2P            pairs without peer access: error where a fabric or PCIe switch joins them,
//                          info across host bridges and sockets (many platforms refuse it there)
//   TOPO_HOST_PATH         pairs with no GPU fabric whose path crosses host bridges or sockets (info)
//   TOPO_NUMA_SPREAD       GPUs on several NUMA nodes (info)
//   TOPO_PCIE_ROOT_UNEVEN  a root complex carrying more or fewer GPUs than the machine's others
//                          (warning: a GPU cabled to the wrong root port; pcie_routing_check.hpp)
// The checks judge the topology they are given: analyse/ passes the run's GPUs only.
#include <vector>

#include "model/result.hpp"
#include "model/topology.hpp"

namespace fb {

std::vector<Finding> check_topology(const Topology& t);

}  // namespace fb
