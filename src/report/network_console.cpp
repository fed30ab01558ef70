#include "report/network_console.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <string>
#include <vector>

#include "analyse/scope/gpu_names.hpp"

namespace fb {
namespace {

std::string gpu_name(const Topology* topology, const std::string& bus_id) {
  const auto* g = topology != nullptr ? topology->find_gpu_by_bus(bus_id) : nullptr;
  return g != nullptr ? fmt::format("GPU{}", g->index) : bus_id;
}

std::string rate_text(const NicPort& p) {
  return p.rate_gbps > 0 ? fmt::format("{:g} Gb/s", p.rate_gbps) : "? Gb/s";
}

std::string state_text(const NicPort& p) {
  std::string s = p.state.empty() ? "?" : p.state;
  if (!p.phys_state.empty()) s += "/" + p.phys_state;
  return s;
}

std::string distances(const NicPort& p, const Topology* topology) {
  std::vector<std::string> parts;
  parts.reserve(p.gpus.size());
  for (const auto& d : p.gpus)
    parts.push_back(
        fmt::format("{} {}", gpu_name(topology, d.bus_id), d.path_class.empty() ? "?" : d.path_class));
  return fmt::format("{}", fmt::join(parts, ", "));
}

void gdr_line(std::ostream& out, const std::string& what, const HostFact& f) {
  const std::string value = f.known() ? f.value : "unknown";
  fmt::print(out, "#   {:<28} {:<14} {}{}\n", what, value, f.source,
             f.note.empty() ? "" : " (" + f.note + ")");
}

}  // namespace

void print_network(std::ostream& out, const NetworkFacts& network, const Topology* topology) {
  if (!network.read) return;
  fmt::print(out, "# network ports (NIC_* findings above judge them)\n");
  if (network.ports.empty()) fmt::print(out, "#   no network ports found\n");
  for (const auto& p : network.ports) {
    const std::string numa = p.numa_node >= 0 ? std::to_string(p.numa_node) : "?";
    fmt::print(out, "#   {:<12} {:<8} {:>10}  {:<16} NUMA {:<2} {:<12}{}{}\n", p.name, p.kind, rate_text(p),
               state_text(p), numa, p.bus_id.empty() ? "?" : p.bus_id,
               p.netdev.empty() ? "" : " netdev " + p.netdev,
               p.gpus.empty() ? "" : "  to " + distances(p, topology));
  }
  gdr_line(out, "GPUDirect RDMA: peer memory", network.gdr_peer_module);
  gdr_line(out, "GPUDirect RDMA: dma-buf", network.gdr_dma_buf);
  out.flush();
}

}  // namespace fb
