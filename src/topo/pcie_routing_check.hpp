#pragma once
// TOPO_PCIE_ROOT_UNEVEN: GPUs that should each sit under their platform's usual share of PCIe
// root complexes but do not (a riser or cable on the wrong root port). GPU platforms spread their
// GPUs evenly (8 x MI300X on 2 x EPYC 9004: one GPU per root complex); when most root complexes
// that carry GPUs carry the same number, one carrying more or fewer is a mis-route. The GPUs
// that share a root complex also share its bandwidth (host copies, their NICs). Read from the
// sysfs PCI paths; a machine without a most common count (e.g. 2 + 1) is not judged.
#include <vector>

#include "model/result.hpp"
#include "model/topology.hpp"

namespace fb {

void check_pcie_routing(const Topology& t, std::vector<Finding>& out);

}  // namespace fb
