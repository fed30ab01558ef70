#include "engine/commands/projection_bounds.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>

#include "analyse/expect/ceilings.hpp"
#include "analyse/expect/cross_host_expectation.hpp"
#include "analyse/expect/network_bound.hpp"
#include "core/units.hpp"
#include "topo/link_rates.hpp"
#include "topo/placement.hpp"

namespace fb {
namespace {

// Beyond this many subsets of k GPUs the placement rule's best subset stands for them all.
constexpr double kMostSubsets = 20000;

// The most GPUs the document holds on one host; on a document of one host, also the most any of its runs
// used (a run of 8 GPUs says the host has 8) and its topology's.
int gpus_per_host(const Result& r) {
  std::map<std::string, int> per_host;
  for (const auto& g : r.gpus) per_host[g.host] += 1;
  int most = 0;
  for (const auto& [host, n] : per_host) most = std::max(most, n);
  if (per_host.size() > 1) return most;
  for (const auto& run : r.runs) most = std::max(most, static_cast<int>(run.gpus.size()));
  if (r.topology) most = std::max(most, static_cast<int>(r.topology->gpus.size()));
  return most;
}

double subsets(std::size_t n, int k) {
  double c = 1;
  for (int i = 0; i < k; ++i) c = c * static_cast<double>(n - static_cast<std::size_t>(i)) / (i + 1);
  return c;
}

// The best ring ceiling over the k-subsets of `ids` (lexicographic order: ties keep the lowest GPUs).
void best_of_subsets(const Topology& t, const std::vector<int>& ids, int k, PathCeiling& best,
                     std::vector<int>& placement) {
  std::vector<int> pick(static_cast<std::size_t>(k));
  std::vector<bool> mask(ids.size(), false);
  std::fill(mask.begin(), mask.begin() + k, true);
  do {
    pick.clear();
    for (std::size_t i = 0; i < ids.size(); ++i)
      if (mask[i]) pick.push_back(ids[i]);
    const auto c = ring_ceiling(t, pick);
    if (c.known() && (!best.known() || c.gbps > best.gbps + 1e-9)) {
      best = c;
      placement = pick;
    }
  } while (std::prev_permutation(mask.begin(), mask.end()));
}

CommBound unknown_bound(int k, std::string why) {
  CommBound b;
  b.gpus = k;
  b.unknown = std::move(why);
  return b;
}

// Within one host, the topology read: the ring ceiling of the best k-GPU subset (analyse/expect/ceilings).
CommBound topology_bound(const Topology& t, int k) {
  std::vector<int> ids;
  ids.reserve(t.gpus.size());
  for (const auto& g : t.gpus) ids.push_back(g.index);
  std::sort(ids.begin(), ids.end());
  PathCeiling best;
  std::vector<int> placement;
  const bool every = subsets(ids.size(), k) <= kMostSubsets;
  if (every) {
    best_of_subsets(t, ids, k, best, placement);
  } else {
    placement = choose_gpus(t, k, Placement::best);
    best = ring_ceiling(t, placement);
  }
  if (!best.known())
    return unknown_bound(k,
                         fmt::format("the topology gives no ring ceiling for {} of its GPUs (a pair's path "
                                     "ceiling is not known: docs/model.md): measure {} GPUs (`fabricbench "
                                     "scale all_reduce`)",
                                     k, k));
  CommBound b{k, best.gbps, "subset_ceiling", placement, "", ""};
  b.source = fmt::format("the ring ceiling of the best {}-GPU subset of the host's topology ({}): {}", k,
                         every ? fmt::format("the highest of its {:.0f} subsets", subsets(ids.size(), k))
                               : "the placement rule's best, too many subsets to try each",
                         best.source);
  return b;
}

// Within one host, no topology read: the product's fully connected xGMI platform, where it has one.
CommBound platform_bound(const Result& r, int k, int per_host) {
  const std::string name = r.gpus.empty() ? "" : r.gpus.front().name;
  const auto* x = xgmi_product(name, "");
  if (x != nullptr && per_host <= x->full_mesh_gpus && x->mesh_ring_gbps(k) > 0) {
    CommBound b{k, x->mesh_ring_gbps(k), "subset_ceiling", {}, "", ""};
    b.source = fmt::format(
        "no topology read: {} GPUs of the usual platform of {} fully connected {} (one xGMI link per pair): "
        "{} x RCCL's model of a link, {:g} GB/s (docs/model.md, \"The xGMI model\"); --topo FILE reads the "
        "real topology",
        k, x->full_mesh_gpus, name, k - 1, x->rccl_gbps_per_link * x->links_per_pair);
    return b;
  }
  if (r.topology && !r.topology->gpus.empty())
    return unknown_bound(k,
                         fmt::format("the document's topology holds {} GPUs, fewer than {}: measure {} GPUs "
                                     "(`fabricbench scale all_reduce`)",
                                     r.topology->gpus.size(), k, k));
  return unknown_bound(
      k,
      fmt::format("the document holds no topology to bound a {}-GPU ring: pass --topo FILE (`nvidia-smi topo "
                  "-m` or `rocm-smi --showtopo` of that machine)",
                  k));
}

CommBound host_bound(const Result& r, int k, int per_host) {
  if (r.topology && !r.topology->pairs.empty() && k <= static_cast<int>(r.topology->gpus.size()))
    return topology_bound(*r.topology, k);
  return platform_bound(r, k, per_host);
}

bool crosses_hosts(const Result& r, const Run& run) { return run_hosts(r, run).size() > 1; }

// An all_reduce across hosts the document measured: the one on most GPUs, its busbw at its largest size.
CommBound measured_network(const Result& r, int k) {
  const Run* best = nullptr;
  for (const auto& run : r.runs) {
    const bool usable = (run.kind == RunKind::collective || run.kind == RunKind::scale) &&
                        run.collective == "all_reduce" && run.failure.empty() && run.forced.empty() &&
                        !run.points.empty() && crosses_hosts(r, run);
    if (usable && (best == nullptr || run.gpus.size() > best->gpus.size())) best = &run;
  }
  if (best == nullptr) return unknown_bound(k, "");
  const auto& p = *std::max_element(best->points.begin(), best->points.end(),
                                    [](const Point& a, const Point& b) { return a.bytes < b.bytes; });
  CommBound b{k, p.busbw_gbps, "network_measured", {}, "", ""};
  b.source = fmt::format(
      "the all_reduce on {} GPUs across {} hosts the document measured: {:.1f} GB/s busbw at {} (a ring "
      "across "
      "hosts crosses each host's NICs once per channel, whatever the host count)",
      best->gpus.size(), run_hosts(r, *best).size(), p.busbw_gbps, format_bytes(p.bytes));
  return b;
}

// The document as a job of `k` GPUs over hosts like its own (its GPUs repeated, each extra host taking
// the document's network facts), and an all_reduce over them: what the NICs bound it to.
CommBound expected_network(const Result& r, int k, int per_host) {
  Result job = r;
  job.runs.clear();
  job.gpus.clear();
  std::vector<GpuInfo> host_gpus;
  const std::string first = r.gpus.empty() ? "" : r.gpus.front().host;
  for (const auto& g : r.gpus)
    if (g.host == first) host_gpus.push_back(g);
  Run run;
  run.collective = "all_reduce";
  for (int rank = 0; rank < k && !host_gpus.empty(); ++rank) {
    const int host = rank / per_host;
    GpuInfo g = host_gpus[static_cast<std::size_t>(rank % per_host) % host_gpus.size()];
    g.rank = rank;
    if (host > 0) g.host = fmt::format("host-{}", host + 1);
    job.gpus.push_back(g);
    run.gpus.push_back(g.index);
  }
  const auto f = cross_host_figure(job, run, WhatRan{});
  if (f.from_class_range)
    return unknown_bound(k,
                         "the hosts' network ports are not in the document (a datacenter network's range for "
                         "these GPUs is a floor for judging, not what their NICs carry)");
  if (!(f.value > 0)) return unknown_bound(k, f.unknown);
  CommBound b{k, f.value, "network_expected", {}, "", ""};
  b.source = fmt::format("what the NICs carry, every other host taken as this one: {}", f.source);
  return b;
}

CommBound given_network(int k, double gbps) {
  return {k, gbps, "given", {}, "--net-busbw: an all_reduce busbw across hosts given on the command line",
          ""};
}

// Beyond one host: the network's figure (given, measured, else expected from the NICs). Not held to one
// host's own ring ceiling: across hosts part of each GPU's traffic leaves by the NICs (2 x 8 MI300X
// measured 357 GB/s busbw at 16 GiB, above the 336 of one host's xGMI ring).
CommBound network_bound_of(const Result& r, int k, int per_host, double given) {
  CommBound b = given > 0 ? given_network(k, given) : measured_network(r, k);
  if (!(b.busbw_gbps > 0)) b = expected_network(r, k, per_host);
  if (!(b.busbw_gbps > 0))
    return unknown_bound(
        k, fmt::format(
               "TP={} spans {} hosts of {} GPUs; the document measured no all_reduce across hosts{}: "
               "measure across hosts (`fabricbench run all_reduce` under mpirun or torchrun), or pass "
               "--net-busbw GBPS to assume a figure",
               k, (k + per_host - 1) / per_host, per_host,
               b.unknown.empty() ? "" : fmt::format(", and its network gives no figure ({})", b.unknown)));
  return b;
}

}  // namespace

std::map<int, CommBound> projection_bounds(const Result& r, const std::vector<int>& degrees,
                                           double net_busbw_gbps) {
  std::map<int, CommBound> bounds;
  const int per_host = gpus_per_host(r);
  for (const int k : degrees) {
    if (k < 2 || bounds.contains(k)) continue;
    bounds[k] = per_host > 0 && k > per_host ? network_bound_of(r, k, per_host, net_busbw_gbps)
                                             : host_bound(r, k, std::max(per_host, k));
  }
  return bounds;
}

}  // namespace fb
