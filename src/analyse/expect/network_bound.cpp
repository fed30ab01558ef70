#include "analyse/expect/network_bound.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <unordered_map>

#include "analyse/expect/port_figures.hpp"
#include "core/text.hpp"
#include "topo/sysfs_probe.hpp"

namespace fb {
namespace {

// Under the GPU's own PCIe switch (or switches): NCCL's GPUDirect RDMA path (NCCL_NET_GDR_LEVEL).
bool near_class(const std::string& c) { return c == "PIX" || c == "PXB"; }

std::string bus_of(const Result& r, const std::string& host, const GpuInfo* g, int index) {
  if (g != nullptr && !g->pci_bus_id.empty()) return normalize_bus_id(g->pci_bus_id);
  for (const auto& s : r.hosts)
    if (s.name == host)
      for (const auto& hg : s.gpus)
        if (hg.index == index) return normalize_bus_id(hg.pci_bus_id);
  return "";
}

// The ports NCCL's log names ("mlx5_0:1"), where it names IB ports; empty: no restriction known.
std::vector<std::string> logged_ports(const Run& run) {
  std::vector<std::string> out;
  if (run.nccl_nics)
    for (const auto& n : *run.nccl_nics)
      if (n.net == "IB") out.push_back(fmt::format("{}:{}", n.device, n.port > 0 ? n.port : 1));
  return out;
}

std::string gdr_words(const NetworkFacts& net, bool& possible) {
  possible = true;
  const auto& module = net.gdr_peer_module.value;
  if (!module.empty() && module != "none") return "GPUDirect RDMA possible (" + module + ")";
  if (net.gdr_dma_buf.value == "possible") return "GPUDirect RDMA possible (dma-buf)";
  if (module == "none" && net.gdr_dma_buf.value == "not possible") {
    possible = false;
    return "no GPUDirect RDMA (no peer-memory module, no dma-buf): staged through host memory";
  }
  return "GPUDirect RDMA not known: assumed possible";
}

// The best path class from `port` to the GPU `bus`; "" when unknown.
std::string class_to(const NicPort& port, const std::string& bus) {
  for (const auto& d : port.gpus)
    if (normalize_bus_id(d.bus_id) == bus) return d.path_class;
  return "";
}

// Which up ports the run's GPUs use, and the layout in words. Every up port under a run GPU's PCIe switch
// counts (a GB300 tray's 8 ports for its 4 GPUs are 8): NCCL drives each GPU's nearest ports.
struct Selection {
  std::vector<const NicPort*> ports;
  std::map<std::string, std::vector<const NicPort*>> gpu_ports;  // per GPU: its ports at its nearest class
  bool distances_known = false;
  bool cpu_attached = false;  // no port under any run GPU's switch
};

Selection select_ports(const std::vector<const NicPort*>& up, const std::vector<std::string>& buses) {
  Selection s;
  for (const auto& bus : buses) {
    const bool any_pix =
        std::any_of(up.begin(), up.end(), [&](const NicPort* p) { return class_to(*p, bus) == "PIX"; });
    for (const auto* p : up) {
      const auto c = class_to(*p, bus);
      if (!c.empty()) s.distances_known = true;
      if (c == "PIX" || (!any_pix && c == "PXB")) s.gpu_ports[bus].push_back(p);
    }
  }
  for (const auto* p : up) {
    const bool serves = std::any_of(s.gpu_ports.begin(), s.gpu_ports.end(), [&](const auto& gp) {
      return std::find(gp.second.begin(), gp.second.end(), p) != gp.second.end();
    });
    if (serves || s.gpu_ports.empty()) s.ports.push_back(p);
  }
  s.cpu_attached = s.distances_known && s.gpu_ports.empty();
  return s;
}

std::string layout_words(const Selection& s, const RunHost& h) {
  if (!s.distances_known) return "which GPUs each port serves is not known: every up port counted";
  if (s.cpu_attached)
    return "no port under a run GPU's PCIe switch (CPU-attached): staged through host memory";
  std::vector<int> without;
  for (std::size_t i = 0; i < h.bus_ids.size(); ++i)
    if (!s.gpu_ports.contains(h.bus_ids[i])) without.push_back(h.indices[i]);
  const std::string lacking =
      without.empty() ? ""
                      : fmt::format("; GPU {} without a port under its PCIe switch", join_ints(without, ","));
  const bool own = std::all_of(s.gpu_ports.begin(), s.gpu_ports.end(),
                               [](const auto& gp) { return gp.second.size() == 1; });
  if (own && s.ports.size() == s.gpu_ports.size())
    return (without.empty() ? "rail-optimised: each GPU has its own port under its PCIe switch"
                            : "one port under each served GPU's PCIe switch") +
           lacking;
  if (s.ports.size() > s.gpu_ports.size())
    return fmt::format("{} ports under the PCIe switches of {} GPUs, every one counted{}", s.ports.size(),
                       s.gpu_ports.size(), lacking);
  return fmt::format("{} GPUs share {} ports under their PCIe switches{}", s.gpu_ports.size(), s.ports.size(),
                     lacking);
}

// The up IB/RoCE ports, only those NCCL's log names where it names some of this host's.
std::vector<const NicPort*> up_ports(const NetworkFacts& net, const std::vector<std::string>& logged) {
  std::vector<const NicPort*> up, named;
  for (const auto& p : net.ports) {
    if (!is_rdma_port(p) || !p.up) continue;
    up.push_back(&p);
    if (std::find(logged.begin(), logged.end(), p.name) != logged.end()) named.push_back(&p);
  }
  return named.empty() ? up : named;
}

// One host's bound; `unknown` set when a counted port has no rate.
HostBound host_bound(const NetworkFacts& net, const RunHost& run_host, const std::vector<std::string>& logged,
                     std::string& unknown) {
  const auto& host = run_host.name;
  const auto& buses = run_host.bus_ids;
  HostBound h;
  h.host = host;
  h.bus_ids = buses;
  const auto up = up_ports(net, logged);
  bool gdr = true;
  h.gdr = gdr_words(net, gdr);
  const auto sel = select_ports(up, buses);
  h.layout = layout_words(sel, run_host);
  std::unordered_map<const NicPort*, double> figure;
  for (const auto* p : sel.ports) {
    const auto f = ring_port_figure(p->rate_gbps);
    if (f.gbps <= 0 && unknown.empty())
      unknown = fmt::format("NIC rate unknown: {} on {} reads no rate", p->name, host);
    const bool staged = !gdr || sel.cpu_attached;
    h.ports.push_back({p->name, p->kind, p->rate_gbps, f.gbps * (staged ? kStagedShare : 1.0), staged,
                       std::string(f.cite)});
    figure[p] = h.ports.back().gbps;
    h.ring_gbps += h.ports.back().gbps;
  }
  // A GPU without a port of its own reaches the network through another GPU's (the weakest, to be safe).
  double weakest = 0;
  for (const auto& p : h.ports) weakest = weakest == 0 ? p.gbps : std::min(weakest, p.gbps);
  for (const auto& b : buses) {
    const auto it = sel.gpu_ports.find(b);
    double own = 0;
    if (it != sel.gpu_ports.end())
      for (const auto* p : it->second) own += figure[p];
    h.gpu_port_gbps[b] = own > 0 ? own : weakest;
  }
  return h;
}

}  // namespace

std::string HostBound::ports_text() const {
  if (ports.empty()) return "no up IB/RoCE port";
  std::vector<std::string> kinds;  // "IB 400 Gb/s", counted in order
  kinds.reserve(ports.size());
  for (const auto& p : ports)
    kinds.push_back(fmt::format("{} {:g} Gb/s{}", p.kind, p.rate_gbps, p.staged ? " (staged)" : ""));
  return counted_join(kinds);
}

bool NetworkBound::uneven() const {
  if (hosts.empty()) return false;
  return std::any_of(hosts.begin(), hosts.end(),
                     [&](const HostBound& h) { return h.ring_gbps > limit().ring_gbps + 1e-9; });
}

std::vector<RunHost> run_hosts(const Result& r, const Run& run) {
  std::unordered_map<int, const GpuInfo*> by_rank;
  for (const auto& g : r.gpus) by_rank.emplace(g.rank, &g);
  std::vector<RunHost> out;
  std::unordered_map<std::string, std::size_t> slot;
  for (std::size_t i = 0; i < run.gpus.size(); ++i) {
    const auto it = by_rank.find(static_cast<int>(i));
    const GpuInfo* g = it == by_rank.end() ? nullptr : it->second;
    const std::string host = g != nullptr ? g->host : "";
    const auto [at, fresh] = slot.emplace(host, out.size());
    if (fresh) out.push_back({host, {}, {}, {}});
    auto& h = out[at->second];
    h.ranks.push_back(static_cast<int>(i));
    h.indices.push_back(run.gpus[i]);
    h.bus_ids.push_back(bus_of(r, host, g, run.gpus[i]));
  }
  return out;
}

NetworkBound network_bound(const Result& r, const Run& run) {
  NetworkBound b;
  b.used = network_used(r, run);
  if (b.used.path != NetPath::ib) {
    b.unknown = b.used.evidence;
    return b;
  }
  const auto logged = logged_ports(run);
  for (const auto& h : run_hosts(r, run)) {
    bool assumed = false;
    const auto* net = host_network(r, h.name, assumed);
    if (net == nullptr) {
      b.unread.push_back(h.name);
      continue;
    }
    b.hosts.push_back(host_bound(*net, h, logged, b.unknown));
    b.hosts.back().assumed = assumed;
  }
  if (b.hosts.empty() && b.unknown.empty())
    b.unknown =
        "NIC rate unknown: NCCL's network is IB but the hosts' ports were not read (`fabricbench doctor` "
        "reads each host's)";
  for (std::size_t i = 0; i < b.hosts.size(); ++i)
    if (b.hosts[i].ring_gbps < b.hosts[b.weakest].ring_gbps) b.weakest = i;
  if (b.unknown.empty() && !b.hosts.empty() && b.limit().ring_gbps <= 0)
    b.unknown = fmt::format("no up IB/RoCE port on {} for the run's GPUs", b.limit().host);
  return b;
}

}  // namespace fb
