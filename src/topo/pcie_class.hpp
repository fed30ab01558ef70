#pragma once
// The PCIe path class between two devices, with nvidia-smi's meanings:
//   PIX  at most one PCIe switch between them      PXB  several PCIe switches
//   PHB  through a PCIe host bridge (the CPU)       NODE between host bridges of one NUMA node
//   SYS  across the SMP interconnect between NUMA nodes (QPI/UPI, Infinity Fabric)
#include <string>

#include "model/topology.hpp"

namespace fb {

// "" when either PCI path is unknown.
std::string pcie_class(const TopoGpu& a, const TopoGpu& b);

}  // namespace fb
