#include "analyse/network/nic_checks.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <map>

#include "analyse/scope/host_scope.hpp"

namespace fb {
namespace {

const NetworkFacts* network_of(const Result& r) {
  if (!r.host.config || !r.host.config->network.read) return nullptr;
  return &r.host.config->network;
}

std::string rate_text(double gbps) { return gbps > 0 ? fmt::format("{:g} Gb/s", gbps) : "rate unknown"; }

std::string describes(const std::vector<const NicPort*>& ports) {
  std::vector<std::string> parts;
  parts.reserve(ports.size());
  for (const auto* p : ports) parts.push_back(describe_port(*p));
  return fmt::format("{}", fmt::join(parts, "; "));
}

// An IB/RoCE port that is not ACTIVE, or an interface the kernel says is down ("unknown" and
// "dormant" are not down: virtual and some drivers' ports read so while they carry traffic).
bool is_down(const NicPort& p) {
  if (p.state.empty()) return false;
  if (is_rdma_port(p)) return p.state != "ACTIVE";
  return p.state == "down" || p.state == "lowerlayerdown";
}

void port_down(const NetworkFacts& net, std::vector<Finding>& out) {
  std::vector<const NicPort*> rdma;
  std::vector<const NicPort*> ethernet;
  for (const auto& p : net.ports)
    if (is_down(p)) (is_rdma_port(p) ? rdma : ethernet).push_back(&p);
  if (!rdma.empty())
    out.push_back({"NIC_PORT_DOWN", Severity::warning, "IB/RoCE ports not ACTIVE: " + describes(rdma),
                   "every IB/RoCE port ACTIVE/LinkUp",
                   "a port down leaves its GPUs' traffic to another NIC: check the cable and the switch port "
                   "(ibstat, mlxlink -d <dev> -p <port>), or exclude it with NCCL_IB_HCA"});
  if (!ethernet.empty())
    out.push_back({"NIC_PORT_DOWN", Severity::info, "Ethernet interfaces down: " + describes(ethernet),
                   "the interfaces NCCL uses up",
                   "unused ports may be down; if NCCL should use one, check its cable (ethtool <if>) "
                   "and NCCL_SOCKET_IFNAME"});
}

void rate_mismatch(const NetworkFacts& net, std::vector<Finding>& out) {
  for (const std::string kind : {"IB", "RoCE", "Ethernet"}) {
    std::map<double, std::vector<const NicPort*>> by_rate;
    for (const auto& p : net.ports)
      if (p.kind == kind && p.up && p.rate_gbps > 0) by_rate[p.rate_gbps].push_back(&p);
    if (by_rate.size() < 2) continue;
    const double top = by_rate.rbegin()->first;
    std::vector<const NicPort*> slower;
    for (const auto& [rate, ports] : by_rate)
      if (rate < top) slower.insert(slower.end(), ports.begin(), ports.end());
    const bool rdma = kind != "Ethernet";
    out.push_back(
        {"NIC_RATE_MISMATCH", rdma ? Severity::warning : Severity::info,
         fmt::format("{} ports at {} rates: {} on {} port(s); slower: {}", kind, by_rate.size(),
                     rate_text(top), by_rate.rbegin()->second.size(), describes(slower)),
         fmt::format("every {} port at {}", kind, rate_text(top)),
         rdma ? "a ring runs at its slowest NIC: check the slower ports' cables, transceivers and switch "
                "ports (ibstat, mlxlink -d <dev> -p <port>)"
              : "ports of different speeds (a management port beside data ports) are common; NCCL "
                "sockets should use the fast ones (NCCL_SOCKET_IFNAME)"});
  }
}

// PIX (nearest) .. SYS (farthest); unknown after all of them.
int class_rank(const std::string& c) {
  static constexpr std::array kOrder{"PIX", "PXB", "PHB", "NODE", "SYS"};
  const auto* it = std::find(kOrder.begin(), kOrder.end(), c);
  return static_cast<int>(it - kOrder.begin());
}

int gpu_numa(const Result& r, const std::string& bus_id) {
  const auto* g = r.topology ? r.topology->find_gpu_by_bus(bus_id) : nullptr;
  return g != nullptr ? g->numa_node : -1;
}

// The nearest port to a GPU among `ports`, and its class; nullptr when no distance is known.
std::pair<const NicPort*, std::string> nearest(const std::vector<const NicPort*>& ports,
                                               const std::string& bus_id) {
  std::pair<const NicPort*, std::string> best{nullptr, ""};
  for (const auto* p : ports)
    for (const auto& d : p->gpus)
      if (d.bus_id == bus_id && !d.path_class.empty() &&
          (best.first == nullptr || class_rank(d.path_class) < class_rank(best.second)))
        best = {p, d.path_class};
  return best;
}

void far_from_gpu(const Result& r, std::vector<Finding>& out) {
  const auto ports = up_rdma_ports(r);
  if (ports.empty()) return;
  for (const auto& bus : host_scope(r).bus_ids) {
    const auto [port, path_class] = nearest(ports, bus);
    const int numa = gpu_numa(r, bus);
    if (port == nullptr || numa < 0 || port->numa_node < 0 || port->numa_node == numa) continue;
    out.push_back(
        {"NIC_FAR_FROM_GPU", Severity::warning,
         fmt::format("{} on NUMA node {}: its nearest up IB/RoCE port {} is {} away", gpu_label(r, bus), numa,
                     describe_port(*port), path_class),
         "an IB/RoCE port on the GPU's NUMA node, best under its PCIe switch (PIX)",
         "this GPU's network traffic crosses the CPU interconnect: move a NIC to a slot on that "
         "socket, or run the job on the GPUs near the NICs (NCCL_IB_HCA names the ports NCCL uses)"});
  }
}

void no_gdr(const NetworkFacts& net, std::vector<Finding>& out) {
  const bool rdma = std::any_of(net.ports.begin(), net.ports.end(), is_rdma_port);
  if (!rdma || net.gdr_peer_module.value != "none" || net.gdr_dma_buf.value != "not possible") return;
  out.push_back(
      {"NIC_NO_GDR", Severity::warning,
       fmt::format("IB/RoCE ports present but GPUDirect RDMA is not possible: peer-memory module "
                   "none ({}), dma-buf not possible ({}: {})",
                   net.gdr_peer_module.source, net.gdr_dma_buf.source, net.gdr_dma_buf.note),
       "nvidia_peermem loaded, or dma-buf (Linux 5.12+ and NVIDIA's open kernel module)",
       "without GPUDirect RDMA NCCL stages network data through host memory: modprobe nvidia_peermem, "
       "or install the open kernel module on a 5.12+ kernel"});
}

}  // namespace

std::string describe_port(const NicPort& p) {
  std::string state = p.state.empty() ? "state unknown" : p.state;
  if (!p.phys_state.empty()) state += "/" + p.phys_state;
  const std::string numa = p.numa_node >= 0 ? fmt::format("NUMA {}", p.numa_node) : "NUMA unknown";
  const std::string path =
      p.pci_path.empty() ? "PCI path unknown" : fmt::format("{}", fmt::join(p.pci_path, "/"));
  return fmt::format("{} ({}, {}, {}, {}, {})", p.name, p.kind, rate_text(p.rate_gbps), state, numa, path);
}

std::vector<const NicPort*> up_rdma_ports(const Result& r) {
  std::vector<const NicPort*> out;
  if (const auto* net = network_of(r))
    for (const auto& p : net->ports)
      if (is_rdma_port(p) && p.up) out.push_back(&p);
  return out;
}

std::vector<Finding> check_nics(const Result& r) {
  std::vector<Finding> out;
  const auto* net = network_of(r);
  if (net == nullptr) return out;
  port_down(*net, out);
  rate_mismatch(*net, out);
  far_from_gpu(r, out);
  no_gdr(*net, out);
  return out;
}

}  // namespace fb
