#include "topo/topology_checks.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>

#include "topo/pcie_routing_check.hpp"

namespace fb {
namespace {

std::string pcie_text(int gen, int width) { return fmt::format("Gen{} x{}", gen, width); }

void check_pcie(const TopoGpu& g, std::vector<Finding>& out) {
  const auto& p = g.pcie;
  if (p.max_width > 0 && p.width > 0 && p.width < p.max_width)
    out.push_back(
        {"TOPO_PCIE_WIDTH_DOWN", Severity::info,
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

// Peer access is expected where the GPUs share a fabric or a PCIe switch; across host bridges
// and sockets many platforms refuse it by design and NCCL's SHM transport is the normal path.
bool p2p_expected(const TopoPair& p) {
  const auto kind = p.connection.kind();
  return p.connection.is_gpu_fabric() || kind == Connection::Kind::pix || kind == Connection::Kind::pxb;
}

void check_no_p2p(const Topology& t, std::vector<Finding>& out) {
  std::vector<std::string> expected;
  std::vector<std::string> usual;
  for (const auto& p : t.pairs)
    if (p.p2p && !*p.p2p)
      (p2p_expected(p) ? expected : usual)
          .push_back(fmt::format("GPU{}-GPU{} ({}, {})", p.a, p.b, p.connection, p.p2p_detail));
  if (!expected.empty())
    out.push_back({"TOPO_NO_P2P", Severity::error,
                   fmt::format("no peer-to-peer access between GPUs on a fabric or PCIe switch: {}",
                               fmt::join(expected, "; ")),
                   "peer access between GPUs that share a fabric link or a PCIe switch",
                   "NCCL will stage through host memory (SHM); on bare metal disable ACS/IOMMU redirection "
                   "for the GPUs' switches (or iommu=pt), in VMs enable P2P passthrough"});
  if (!usual.empty())
    out.push_back(
        {"TOPO_NO_P2P", Severity::info,
         fmt::format("no peer-to-peer access across host bridges or sockets: {}", fmt::join(usual, "; ")),
         "none across host bridges on many platforms",
         "NCCL moves these pairs' data through host memory (SHM); place tightly coupled ranks on GPUs "
         "under one PCIe switch"});
}

// Host paths are the machine's design, not a fault: info, one finding per class, so that a
// two-socket PCIe box is described once. What they cost shows in the measurements' verdicts.
void check_pairs(const Topology& t, std::vector<Finding>& out) {
  check_no_p2p(t, out);
  std::vector<std::string> sockets;
  std::vector<std::string> bridges;
  for (const auto& p : t.pairs) {
    if (p.connection.is_gpu_fabric()) continue;
    const auto kind = p.connection.kind();
    const auto text = fmt::format("GPU{}-GPU{} ({}, {})", p.a, p.b, p.connection, p.limit);
    if (kind == Connection::Kind::sys) sockets.push_back(text);
    if (kind == Connection::Kind::phb || kind == Connection::Kind::node) bridges.push_back(text);
  }
  if (!sockets.empty())
    out.push_back(
        {"TOPO_HOST_PATH", Severity::info,
         fmt::format("no GPU fabric; traffic crosses CPU sockets (SYS): {}", fmt::join(sockets, "; ")),
         "a PCIe switch (PIX/PXB) or fabric link between GPUs of one job",
         "place the ranks of one job on GPUs of one socket (fabricbench scale --placement best), or "
         "expect inter-socket bandwidth"});
  if (!bridges.empty())
    out.push_back(
        {"TOPO_HOST_PATH", Severity::info,
         fmt::format("no GPU fabric; traffic goes through host bridges: {}", fmt::join(bridges, "; ")),
         "a PCIe switch (PIX/PXB) or fabric link", "prefer GPUs under one PCIe switch for tight pairs"});
}

void check_numa(const Topology& t, std::vector<Finding>& out) {
  std::set<int> nodes;
  for (const auto& g : t.gpus)
    if (g.numa_node >= 0) nodes.insert(g.numa_node);
  if (nodes.size() < 2) return;
  bool crossing_without_fabric = false;
  for (const auto& p : t.pairs) {
    const auto* a = t.find_gpu(p.a);
    const auto* b = t.find_gpu(p.b);
    if (a && b && a->numa_node != b->numa_node && !p.connection.is_gpu_fabric())
      crossing_without_fabric = true;
  }
  out.push_back(
      {"TOPO_NUMA_SPREAD", Severity::info,
       fmt::format(
           "GPUs sit on NUMA nodes {}{}", fmt::join(nodes, ", "),
           crossing_without_fabric ? "; some pairs on different nodes have no GPU fabric between them" : ""),
       "GPUs of one job on one NUMA node",
       "bind each rank's process and host buffers to its GPU's NUMA node (numactl --cpunodebind --membind)"});
}

}  // namespace

std::vector<Finding> check_topology(const Topology& t) {
  std::vector<Finding> out;
  for (const auto& g : t.gpus) check_pcie(g, out);
  check_nvlinks(t, out);
  check_pcie_routing(t, out);
  check_pairs(t, out);
  check_numa(t, out);
  return out;
}

}  // namespace fb
