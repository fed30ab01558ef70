#include "report/topology_console.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "core/units.hpp"

namespace fb {
namespace {

std::string pcie_text(int gen, int width) {
  if (gen <= 0 || width <= 0) return "?";
  return fmt::format("Gen{} x{}", gen, width);
}

std::string cell(const Topology& t, int a, int b) {
  if (a == b) return "X";
  const auto* p = t.find_pair(a, b);
  return p ? p->connection.to_string() : "?";
}

void print_matrix(std::ostream& out, const Topology& t) {
  fmt::print(out, "{:<8}", "");
  for (const auto& g : t.gpus) fmt::print(out, "{:<8}", fmt::format("GPU{}", g.index));
  fmt::print(out, "{:<16}{}\n", "CPU Affinity", "NUMA Affinity");
  for (const auto& g : t.gpus) {
    fmt::print(out, "{:<8}", fmt::format("GPU{}", g.index));
    for (const auto& h : t.gpus) fmt::print(out, "{:<8}", cell(t, g.index, h.index));
    fmt::print(out, "{:<16}{}\n", g.cpulist.empty() ? "N/A" : g.cpulist,
               g.numa_node >= 0 ? std::to_string(g.numa_node) : "N/A");
  }
}

// An AMD GPU's xGMI links from its pairs (ROCm SMI reads links per pair, not per GPU): "7 to 7 peers".
std::string xgmi_links(const Topology& t, const TopoGpu& g) {
  int links = 0, peers = 0;
  for (const auto& p : t.pairs)
    if ((p.a == g.index || p.b == g.index) && p.connection.kind() == Connection::Kind::xgmi)
      links += p.links, ++peers;
  return peers == 0 ? std::string("-") : fmt::format("{} to {} peer{}", links, peers, peers == 1 ? "" : "s");
}

// The fabric's links per GPU in its vendor's word: NVLinks (NVML), xGMI (ROCm SMI), or both.
std::string links_heading(const Topology& t) {
  const bool amd =
      std::any_of(t.gpus.begin(), t.gpus.end(), [](const TopoGpu& g) { return g.vendor == "amd"; });
  const bool nvidia =
      std::any_of(t.gpus.begin(), t.gpus.end(), [](const TopoGpu& g) { return g.vendor != "amd"; });
  return amd && nvidia ? "NVLinks/xGMI up/total" : amd ? "xGMI links up/total" : "NVLinks up/total";
}

void print_gpus(std::ostream& out, const Topology& t) {
  fmt::print(out, "#\n# {:<4} {:<22} {:<13} {:<9} {:<9} {:<5} {:<16} {}\n", "GPU", "name", "bus id",
             "PCIe now", "PCIe max", "NUMA", "CPUs", links_heading(t));
  for (const auto& g : t.gpus) {
    const auto up =
        std::count_if(g.links.begin(), g.links.end(), [](const FabricLink& l) { return l.active; });
    const auto name = gpu_display_name(g);
    fmt::print(out, "  {:<4} {:<22} {:<13} {:<9} {:<9} {:<5} {:<16} {}\n", g.index, name, g.bus_id,
               pcie_text(g.pcie.gen, g.pcie.width), pcie_text(g.pcie.max_gen, g.pcie.max_width),
               g.numa_node >= 0 ? std::to_string(g.numa_node) : "?", g.cpulist.empty() ? "?" : g.cpulist,
               g.links.empty() ? xgmi_links(t, g) : fmt::format("{}/{}", up, g.links.size()));
  }
}

std::string gbps(double v) { return v > 0 ? fmt::format("{:.1f}", v) : std::string("-"); }

void print_pairs(std::ostream& out, const Topology& t) {
  if (t.pairs.empty()) return;
  fmt::print(
      out,
      "#\n# Theoretical one-direction peak per pair; ceilings: what SM-issued copies (NCCL's kernels) and\n"
      "# copy engines reach on that wire, where measured (docs/model.md)\n");
  fmt::print(out, "# {:<6} {:<10} {:<9} {:>5} {:>15} {:>16} {:>13} {:>13} {:<4} {}\n", "pair", "connection",
             "PCIe path", "links", "per link(GB/s)", "wire peak(GB/s)", "SM ceil(GB/s)", "CE ceil(GB/s)",
             "P2P", "limited by");
  for (const auto& p : t.pairs)
    fmt::print(out, "  {:<6} {:<10} {:<9} {:>5} {:>15} {:>16} {:>13} {:>13} {:<4} {}\n",
               fmt::format("{}-{}", p.a, p.b), p.connection, p.pcie_class.empty() ? "?" : p.pcie_class,
               p.links, gbps(p.link_gbps), gbps(p.wire_gbps), gbps(p.sm_ceiling_gbps),
               gbps(p.ce_ceiling_gbps), p.p2p ? (*p.p2p ? "yes" : "NO") : "?", p.limit);
}

}  // namespace

void print_findings(std::ostream& out, const std::vector<Finding>& findings) {
  if (findings.empty()) {
    fmt::print(out, "# findings: none\n");
    return;
  }
  fmt::print(out, "# findings: {}\n", findings.size());
  for (const auto& f : findings) {
    fmt::print(out, "  [{}] {}: {}\n", f.severity, f.code, with_human_sizes(f.evidence));
    fmt::print(out, "      expected: {}\n      hint: {}\n", f.expected, f.hint);
  }
}

void print_topology(std::ostream& out, const Topology& t, const std::vector<Finding>& findings) {
  fmt::print(out, "# GPU topology: {} GPU{}; read: {}\n", t.gpus.size(), t.gpus.size() == 1 ? "" : "s",
             t.sources.empty() ? std::string("nothing") : fmt::format("{}", fmt::join(t.sources, "; ")));
  if (!t.gpus.empty()) {
    print_matrix(out, t);
    print_gpus(out, t);
    print_pairs(out, t);
  }
  fmt::print(out, "#\n");
  print_findings(out, findings);
  for (const auto& m : t.missing) fmt::print(out, "# could not read: {}\n", m);
  out.flush();
}

}  // namespace fb
