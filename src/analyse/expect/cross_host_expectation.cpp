#include "analyse/expect/cross_host_expectation.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>

#include "analyse/expect/expectations.hpp"
#include "analyse/expect/network_bound.hpp"
#include "analyse/expect/nvlink_domain.hpp"
#include "analyse/expect/port_figures.hpp"
#include "analyse/expect/rdma_range.hpp"
#include "analyse/scope/gpu_model.hpp"
#include "analyse/scope/gpu_names.hpp"
#include "bench/collective_spec.hpp"
#include "comm/hostlist.hpp"
#include "core/text.hpp"

namespace fb {
namespace {

// An algorithm above the ring's bound by more than this is labelled rather than judged when NCCL's log
// did not say which ran: the typical tolerance (analyse/expect/expectations.cpp).
constexpr double kAboveTolerance = 0.10;
constexpr std::uint64_t kFromBytes = 1ULL << 30;
constexpr std::uint64_t kPerGpuBytes = 64ULL << 20;
constexpr int kNvlsTreeGpusPerHost = 8;
constexpr int kNvlsTreePorts = 8;
constexpr double kNvlsTreeRate = 400;

// "8 x 48 GB/s (IB 400 Gb/s) = 384.0 GB/s".
std::string sum_text(const HostBound& h) {
  std::vector<std::string> ports;
  ports.reserve(h.ports.size());
  for (const auto& p : h.ports)
    ports.push_back(
        fmt::format("{:g} GB/s ({} {:g} Gb/s{})", p.gbps, p.kind, p.rate_gbps, p.staged ? ", staged" : ""));
  return fmt::format("{} = {:.1f} GB/s", counted_join(ports), h.ring_gbps);
}

// The hosts in words: every host alike, or the weakest named beside the others'.
std::string hosts_text(const NetworkBound& b) {
  std::vector<std::string> names;
  names.reserve(b.hosts.size());
  for (const auto& h : b.hosts) names.push_back(h.host);
  const auto& w = b.limit();
  const auto own = fmt::format("{} ({}; {})", sum_text(w), w.layout, w.gdr);
  std::string out;
  if (!b.uneven()) {
    out = fmt::format("every host ({}): {}", compress_hostlist(names), own);
  } else {
    std::vector<std::string> others;
    for (const auto& h : b.hosts)
      if (h.ring_gbps > w.ring_gbps + 1e-9) others.push_back(h.host);
    out = fmt::format("the weakest host {}: {}; the others ({}) carry more", w.host, own,
                      compress_hostlist(others));
  }
  if (w.assumed) out += "; every host taken as the one whose network the document holds";
  if (!b.unread.empty()) out += fmt::format("; not read, not counted: {}", compress_hostlist(b.unread));
  return out;
}

std::string cites(const NetworkBound& b) {
  std::set<std::string> all;
  bool staged = false;
  for (const auto& h : b.hosts)
    for (const auto& p : h.ports) {
      all.insert(fmt::format("{:g} Gb/s: {}", p.rate_gbps, p.cite));
      staged = staged || p.staged;
    }
  if (staged) all.insert(std::string(kStagedCite));
  return fmt::format("per port: {}; docs/verdicts.md, \"Across hosts\"", fmt::join(all, "; "));
}

bool ring_family(const std::string& c) {
  return c == "all_reduce" || c == "all_gather" || c == "reduce_scatter" || c == "broadcast" || c == "reduce";
}

// alltoall: each host sends g x (n-g)/n of every GPU's buffer through its ports.
double alltoall_bound(const NetworkBound& b, int n) {
  double best = 0;
  for (const auto& h : b.hosts) {
    const int g = static_cast<int>(h.bus_ids.size());
    if (g <= 0 || g >= n) continue;
    double per_gpu = 0;
    for (const auto& [bus, gbps] : h.gpu_port_gbps) per_gpu += gbps;
    const double capacity = std::min(h.ring_gbps, per_gpu);
    const double v = capacity * (n - 1) / (static_cast<double>(g) * (n - g));
    best = best == 0 ? v : std::min(best, v);
  }
  return best;
}

// sendrecv: rank i sends to rank i+1; where they sit on two hosts, one port each way carries it.
double sendrecv_bound(const Result& r, const Run& run, const NetworkBound& b) {
  const auto hosts = run_hosts(r, run);
  const auto n = run.gpus.size();
  std::vector<std::pair<std::string, std::string>> where(n);  // rank -> (host, bus)
  for (const auto& h : hosts)
    for (std::size_t i = 0; i < h.ranks.size(); ++i)
      where[static_cast<std::size_t>(h.ranks[i])] = {h.name, h.bus_ids[i]};
  const auto figure = [&](const std::pair<std::string, std::string>& at) {
    for (const auto& h : b.hosts)
      if (h.host == at.first)
        if (const auto it = h.gpu_port_gbps.find(at.second); it != h.gpu_port_gbps.end()) return it->second;
    return 0.0;
  };
  double best = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const auto& a = where[i];
    const auto& next = where[(i + 1) % n];
    if (a.first == next.first) continue;
    for (const double f : {figure(a), figure(next)})
      if (f > 0) best = best == 0 ? f : std::min(best, f);
  }
  return best;
}

CrossHostFigure ring_figure(const Result& r, const Run& run, const NetworkBound& b, const std::string& note) {
  CrossHostFigure f;
  f.ring_bound = ring_family(run.collective) ? b.limit().ring_gbps : 0;
  const int n = static_cast<int>(run.gpus.size());
  if (ring_family(run.collective)) {
    f.value = f.ring_bound;
    f.ring_source = fmt::format("{}; {}", hosts_text(b), cites(b));
    f.source = fmt::format("a ring's NIC bound{}: {}", note, f.ring_source);
  } else if (run.collective == "alltoall") {
    f.value = alltoall_bound(b, n);
    f.source =
        fmt::format("alltoall's NIC bound, each host's ports x (n-1)/(g x (n-g)) over {} GPUs: {}; {}; {}", n,
                    hosts_text(b), kAlltoallCite, cites(b));
  } else if (run.collective == "sendrecv") {
    f.value = sendrecv_bound(r, run, b);
    f.source = fmt::format("sendrecv's NIC bound, one port each way between neighbouring hosts: {}; {}",
                           hosts_text(b), cites(b));
  }
  if (f.value <= 0)
    f.unknown = fmt::format("no model of {} across hosts (ring collectives, alltoall and sendrecv have one)",
                            run.collective);
  return f;
}

// NVLSTree's published configuration: 2 hosts of 8 x H100/H200, each with 8 ports at 400G beside the GPUs.
bool published_nvls_tree(const Result& r, const Run& run, const NetworkBound& b) {
  const auto model = gpu_model_key(gpu_name(r, run.gpus));
  if (run.collective != "all_reduce" || (model != "H100" && model != "H200") || b.hosts.size() != 2 ||
      !b.unread.empty())
    return false;
  return std::all_of(b.hosts.begin(), b.hosts.end(), [](const HostBound& h) {
    return static_cast<int>(h.bus_ids.size()) == kNvlsTreeGpusPerHost &&
           static_cast<int>(h.ports.size()) == kNvlsTreePorts &&
           std::all_of(h.ports.begin(), h.ports.end(),
                       [](const CountedPort& p) { return !p.staged && p.rate_gbps == kNvlsTreeRate; });
  });
}

std::string no_figure(const std::string& algo, const Run& run, const NetworkBound& b) {
  if (algo == "NVLSTREE")
    return fmt::format(
        "no published figure for NVLSTree on {} hosts of these GPUs and ports (published: 2 hosts "
        "of 8 x H100 over 8 x 400G, 430-470 GB/s); not held against a ring's bound",
        b.hosts.size());
  if (algo == "TREE")
    return "no published figure for Tree across hosts (its busbw, a ring's formula, can exceed the NICs: "
           "nccl "
           "#1576); not held against a ring's bound";
  if (algo.starts_with("COLLNET"))
    return "no published figure for CollNet (SHARP: the switches reduce) across hosts; not held against a "
           "ring's "
           "bound";
  if (algo == "NVLS") return "NVLS across hosts runs over NVLink between them (MNNVL), not the NICs";
  return fmt::format("no published figure for {} across hosts ({}); not held against a ring's bound", algo,
                     run.collective);
}

// NCCL picks no algorithm for alltoall and sendrecv (grouped sends and receives).
bool picks_algorithm(const std::string& collective) {
  const auto* spec = find_collective(collective);
  return spec == nullptr || !spec->single_node_algos.empty();
}

// Without the hosts' NIC facts (or behind a NET plugin): the low end of the GPU class's datacenter
// network for a ring (its high end labels an algorithm above the NICs); sendrecv: one GPU's share.
std::optional<CrossHostFigure> range_figure(const Result& r, const Run& run, const NetworkBound& b) {
  const bool ring = ring_family(run.collective);
  if (!ring && run.collective != "sendrecv") return std::nullopt;
  const auto range = rdma_range(r, run);
  if (!range) return std::nullopt;
  const double gpus = range->gpus_per_host;
  CrossHostFigure f;
  f.from_class_range = true;
  f.value = ring ? range->low : range->low / gpus;  // sendrecv: one GPU's port each way
  f.ring_bound = ring ? range->high : 0;
  f.ring_source = range->source + " (its high end)";
  f.source = fmt::format("the low end of {} {:.1f}-{:.1f} GB/s: {} ({})",
                         ring ? "a ring's range" : "one GPU's share of a ring's range", f.value,
                         ring ? range->high : range->high / gpus, range->source, b.used.evidence);
  return f;
}

// The hosts' NICs give no bound: the GPU class's datacenter range where it applies, else why not.
CrossHostFigure unknown_network(const Result& r, const Run& run, const NetworkBound& b) {
  const auto path = b.used.path;
  // The NICs not described: no host's network read, or a plugin's devices (a port without a rate is said).
  const bool undescribed =
      path == NetPath::unknown || path == NetPath::plugin || (path == NetPath::ib && b.hosts.empty());
  if (undescribed)
    if (auto range = range_figure(r, run, b)) return *range;
  CrossHostFigure f;
  f.unknown = path == NetPath::sockets  ? "sockets have no rate: " + b.unknown
              : path == NetPath::plugin ? "a NET plugin's ports and rates are not known here: " + b.unknown
              : path == NetPath::not_network ? "not the NICs: " + b.unknown
              : path == NetPath::unknown     ? "the hosts' NICs are not known: " + b.unknown
                                             : b.unknown;
  return f;
}

}  // namespace

std::uint64_t nic_figure_from_bytes(const Run& run) {
  const std::uint64_t per_gpu =
      run.collective == "alltoall" || run.collective == "sendrecv" ? 0 : kPerGpuBytes;
  return std::max(kFromBytes, per_gpu * run.gpus.size());
}

CrossHostFigure cross_host_figure(const Result& r, const Run& run, const WhatRan& w) {
  const auto b = network_bound(r, run);
  CrossHostFigure f;
  if (!b.known()) return unknown_network(r, run, b);
  const auto algo = picks_algorithm(run.collective) ? canonical_algo(w.algo) : "";
  if (algo.empty() || algo == "RING") {
    const bool said = algo == "RING" || !picks_algorithm(run.collective);
    return ring_figure(r, run, b, said ? "" : " (NCCL's algorithm not in its log: held against a ring's)");
  }
  if (ring_family(run.collective)) {
    f.ring_bound = b.limit().ring_gbps;
    f.ring_source = fmt::format("{}; {}", hosts_text(b), cites(b));
  }
  if (algo == "NVLSTREE" && published_nvls_tree(r, run, b)) {
    f.value = kNvlsTreeTwoHosts;
    f.source = fmt::format("NVLSTree on 2 hosts: {} ({})", kNvlsTreeCite, hosts_text(b));
    return f;
  }
  f.unknown = no_figure(algo, run, b);
  return f;
}

std::optional<NicSum> above_nic_sum(const Result& r, const Run& run, const Point& p, const WhatRan& w) {
  if (nccl_hosts(r, run) < 2) return std::nullopt;
  const auto f = cross_host_figure(r, run, w);
  if (f.ring_bound <= 0) return std::nullopt;
  const bool unlogged =
      f.value > 0 && canonical_algo(w.algo).empty();  // held against a ring's: label far above
  if (unlogged ? p.busbw_gbps <= f.ring_bound * (1 + kAboveTolerance)
               : (f.value > 0 || p.busbw_gbps <= f.ring_bound))
    return std::nullopt;
  return NicSum{f.ring_bound, "the ring's NIC bound: " + f.ring_source};
}

}  // namespace fb
