#include "topo/topology_checks.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>

namespace fb {
namespace {

std::string pcie_text(int gen, int width) { return fmt::format("Gen{} x{}", gen, width); }

void check_pcie(const TopoGpu& g, std::vector<Finding>& out) {
  const auto& p = g.pcie;
  if (p.max_width > 0 && p.width > 0 && p.width < p.max_width)
    out.push_back(
        {"TOPO_PCIE_WIDTH_DOWN", Severity::warning,
         fmt::format("GPU{} ({}) PCIe link runs {} of a possible {}", g.index, g.bus_id,
                     pcie_text(p.gen, p.width), pcie_text(p.max_gen, p.max_width)),
         fmt::format("x{} lanes", p.max_width),
         "reseat the GPU or its riser/cable; check the slot's wiring and the BIOS bifurcation setting"});
  if (p.max_gen > 0 && p.gen > 0 && p.gen < p.max_gen)
    out.push_back({"TOPO_PCIE_SPEED_DOWN", Severity::info,
                   fmt::format("GPU{} ({}) PCIe link runs at {} GT/s (Gen{}) of a possible {} GT/s (Gen{})",
                               g.index, g.bus_id, p.speed_gts, p.gen, p.max_speed_gts, p.max_gen),
                   fmt::format("Gen{}", p.max_gen),
                   "GPUs lower the link speed when idle; if it stays low under load (fabricbench p2p), check "
                   "the slot, riser and BIOS PCIe speed setting"});
}

void check_nvlinks(const Topology& t, std::vector<Finding>& out) {
  int most = 0;
  for (const auto& g : t.gpus)
    most = std::max(most, static_cast<int>(std::count_if(g.links.begin(), g.links.end(),
                                                         [](const FabricLink& l) { return l.active; })));
  for (const auto& g : t.gpus) {
    if (g.links.empty()) continue;
    std::vector<int> down;
    for (const auto& l : g.links)
      if (!l.active) down.push_back(l.index);
    const int up = static_cast<int>(g.links.size() - down.size());
    if (!down.empty())
      out.push_back({"TOPO_NVLINK_DOWN", Severity::error,
                     fmt::format("GPU{} ({}): {} of {} NVLinks inactive (links {})", g.index, g.bus_id,
                                 down.size(), g.links.size(), fmt::join(down, ", ")),
                     fmt::format("all {} links active", g.links.size()),
                     "check `nvidia-smi nvlink -s` and the fabric manager (nvidia-fabricmanager) log; a link "
                     "that stays down needs the baseboard or GPU serviced"});
    if (up < most)
      out.push_back({"TOPO_NVLINK_UNEVEN", Severity::warning,
                     fmt::format("GPU{} has {} active NVLinks, other GPUs have {}", g.index, up, most),
                     fmt::format("{} active links like its peers", most),
                     "every ring through this GPU runs at its lower bandwidth; fix its links or leave it out "
                     "of bandwidth-bound jobs"});
  }
}

void check_pairs(const Topology& t, std::vector<Finding>& out) {
  for (const auto& p : t.pairs) {
    if (p.p2p && !*p.p2p)
      out.push_back({"TOPO_NO_P2P", Severity::error,
                     fmt::format("GPU{} - GPU{}: no peer-to-peer access ({})", p.a, p.b, p.p2p_detail),
                     "peer access between GPUs of one machine",
                     "NCCL will stage through host memory (SHM); on bare metal disable ACS/IOMMU redirection "
                     "for the GPUs' switches (or iommu=pt), in VMs enable P2P passthrough"});
    if (p.connection.is_gpu_fabric()) continue;
    const auto kind = p.connection.kind();
    if (kind == Connection::Kind::sys)
      out.push_back(
          {"TOPO_HOST_PATH", Severity::warning,
           fmt::format("GPU{} - GPU{}: no GPU fabric; traffic crosses CPU sockets (SYS), {}", p.a, p.b,
                       p.limit),
           "a PCIe switch (PIX/PXB) or fabric link between GPUs of one job",
           "place the ranks of one job on GPUs of one socket (fabricbench scale --placement best), or "
           "expect inter-socket bandwidth"});
    else if (kind == Connection::Kind::phb || kind == Connection::Kind::node)
      out.push_back(
          {"TOPO_HOST_PATH", Severity::info,
           fmt::format("GPU{} - GPU{}: no GPU fabric; traffic goes through the host bridge ({}), {}", p.a,
                       p.b, p.connection, p.limit),
           "a PCIe switch (PIX/PXB) or fabric link", "prefer GPUs under one PCIe switch for tight pairs"});
  }
}

void check_numa(const Topology& t, std::vector<Finding>& out) {
  std::set<int> nodes;
  for (const auto& g : t.gpus)
    if (g.numa_node >= 0) nodes.insert(g.numa_node);
  if (nodes.size() < 2) return;
  bool crossing_without_fabric = false;
  for (const auto& p : t.pairs) {
    const auto& a = t.gpus.at(static_cast<std::size_t>(p.a));
    const auto& b = t.gpus.at(static_cast<std::size_t>(p.b));
    if (a.numa_node != b.numa_node && !p.connection.is_gpu_fabric()) crossing_without_fabric = true;
  }
  out.push_back(
      {"TOPO_NUMA_SPREAD", crossing_without_fabric ? Severity::warning : Severity::info,
       fmt::format("GPUs sit on NUMA nodes {}", fmt::join(nodes, ", ")), "GPUs of one job on one NUMA node",
       "bind each rank's process and host buffers to its GPU's NUMA node (numactl --cpunodebind --membind)"});
}

}  // namespace

std::vector<Finding> check_topology(const Topology& t) {
  std::vector<Finding> out;
  for (const auto& g : t.gpus) check_pcie(g, out);
  check_nvlinks(t, out);
  check_pairs(t, out);
  check_numa(t, out);
  return out;
}

}  // namespace fb
