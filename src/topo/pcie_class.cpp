#include "topo/pcie_class.hpp"

#include <algorithm>

namespace fb {

std::string pcie_class(const TopoGpu& a, const TopoGpu& b) {
  const auto& pa = a.pci_path;
  const auto& pb = b.pci_path;
  if (pa.empty() || pb.empty()) return "";
  if (pa.front() != pb.front()) {
    // Different root complexes: the same NUMA node (or the same local CPUs) means NODE.
    const bool same_node = (a.numa_node >= 0 && a.numa_node == b.numa_node) ||
                           (a.numa_node < 0 && !a.cpulist.empty() && a.cpulist == b.cpulist);
    return same_node ? "NODE" : "SYS";
  }
  std::size_t common = 0;
  while (common < std::min(pa.size(), pb.size()) && pa[common] == pb[common]) ++common;
  if (common <= 1) return "PHB";  // only the root complex is shared: through the host bridge
  // Bridges below the shared one on the deeper side (the GPU itself not counted). A switch's
  // downstream port directly above the GPU is one bridge: both under one switch is PIX.
  const std::size_t below = std::max(pa.size(), pb.size()) - common - 1;
  return below <= 1 ? "PIX" : "PXB";
}

}  // namespace fb
