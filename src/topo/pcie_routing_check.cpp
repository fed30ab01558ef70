#include "topo/pcie_routing_check.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>
#include <string>

namespace fb {
namespace {

using GpusByRoot = std::map<std::string, std::vector<const TopoGpu*>>;

GpusByRoot group_by_root(const Topology& t) {
  GpusByRoot by_root;
  for (const auto& g : t.gpus)
    if (!g.pci_path.empty()) by_root[g.pci_path.front()].push_back(&g);
  return by_root;
}

// The number of GPUs most root complexes carry; 0 when no count is the most common one alone.
std::size_t usual_count(const GpusByRoot& by_root) {
  std::map<std::size_t, int> how_often;
  for (const auto& [root, gpus] : by_root) ++how_often[gpus.size()];
  std::size_t usual = 0;
  int best = 0;
  bool tie = false;
  for (const auto& [count, times] : how_often) {
    if (times > best) {
      usual = count;
      best = times;
      tie = false;
    } else if (times == best) {
      tie = true;
    }
  }
  return tie || best < 2 ? 0 : usual;
}

std::string gpu_list(const std::vector<const TopoGpu*>& gpus) {
  std::vector<std::string> names;
  names.reserve(gpus.size());
  for (const auto* g : gpus) names.push_back(fmt::format("GPU{} ({})", g->index, g->bus_id));
  return fmt::format("{}", fmt::join(names, ", "));
}

}  // namespace

void check_pcie_routing(const Topology& t, std::vector<Finding>& out) {
  const auto by_root = group_by_root(t);
  if (by_root.size() < 3) return;  // two root complexes: no majority to hold either against
  const std::size_t usual = usual_count(by_root);
  if (usual == 0) return;
  std::vector<std::string> odd;
  for (const auto& [root, gpus] : by_root)
    if (gpus.size() != usual)
      odd.push_back(fmt::format("{} carries {} GPU{}: {}", root, gpus.size(), gpus.size() == 1 ? "" : "s",
                                gpu_list(gpus)));
  if (odd.empty()) return;
  out.push_back(
      {"TOPO_PCIE_ROOT_UNEVEN", Severity::warning,
       fmt::format("{}; the other {} root complexes with GPUs carry {} each", fmt::join(odd, "; "),
                   by_root.size() - odd.size(), usual),
       fmt::format("{} GPU{} under every root complex, as on the rest of this machine", usual,
                   usual == 1 ? "" : "s"),
       "a GPU on another GPU's root complex shares that complex's PCIe bandwidth (host copies, its NIC's "
       "traffic) and sits away from its NIC; check the riser/cable against the platform's slot map "
       "(BMC or manual) and move it to its own root port"});
}

}  // namespace fb
