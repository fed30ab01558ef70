#pragma once
// Result documents of a job across hosts built on the network fixture trees (tests/fixtures/topo:
// ib8, ib8-faulty, ib2-far, roce4, h200-net): each host a `hosts` section with the tree's topology
// and host facts (its NIC sysfs), the tree's GPUs in the run, and one collective run across every
// host's GPUs at one size, with NCCL's algorithm and transports as given. Built here, not measured.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "model/result.hpp"
#include "nic_fixtures.hpp"
#include "topo/host_probe.hpp"
#include "topo/topology_builder.hpp"

struct ClusterSpec {
  std::vector<std::string> trees;  // one per host, in rank order
  std::string gpu = "NVIDIA H100 80GB HBM3";
  std::string collective = "all_reduce";
  std::uint64_t bytes = 16ULL << 30;
  double busbw = 0;
  std::string algo = "RING";  // NCCL's log's; "" not read
  std::vector<std::string> transports{"NET/IB/0/GDRDMA"};
};

// "node01" .. "node128": names that fold into one Slurm hostlist.
inline std::string cluster_host(std::size_t i, std::size_t hosts) {
  const int width = hosts >= 100 ? 3 : 2;
  return "node" + std::string(static_cast<std::size_t>(width) - std::to_string(i + 1).size(), '0') +
         std::to_string(i + 1);
}

// One tree read once: its section (topology, host facts with the network, its GPUs).
inline const fb::HostSection& tree_section(const std::string& tree) {
  static std::map<std::string, fb::HostSection> cache;
  if (const auto it = cache.find(tree); it != cache.end()) return it->second;
  const auto r = nic_result(tree);
  fb::HostSection s;
  s.host.config = r.host.config;
  s.topology = r.topology;
  s.gpus = r.gpus;
  return cache.emplace(tree, std::move(s)).first->second;
}

inline fb::Result cluster_result(const ClusterSpec& spec) {
  fb::Result r;
  r.status = fb::RunStatus::complete;
  fb::Run run;
  run.collective = spec.collective;
  run.nccl_transports = spec.transports;
  int rank = 0;
  for (std::size_t h = 0; h < spec.trees.size(); ++h) {
    auto s = tree_section(spec.trees[h]);
    s.name = cluster_host(h, spec.trees.size());
    s.host.hostname = s.name;
    for (auto& g : s.gpus) {
      g.host = s.name;
      g.name = spec.gpu;
      g.rank = rank++;
      s.ranks.push_back(g.rank);
      r.gpus.push_back(g);
      run.gpus.push_back(g.index);
    }
    r.hosts.push_back(std::move(s));
  }
  r.host = r.hosts.front().host;
  r.topology = r.hosts.front().topology;
  fb::Point p;
  p.bytes = spec.bytes;
  p.busbw_gbps = spec.busbw;
  p.time_us.median_ci = 0.005;
  p.nccl_algo = spec.algo;
  run.points.push_back(p);
  r.runs.push_back(run);
  return r;
}

// `n` hosts of one tree, the last one `last` where given.
inline std::vector<std::string> trees(std::size_t n, const std::string& tree, const std::string& last = "") {
  std::vector<std::string> out(n, tree);
  if (!last.empty()) out.back() = last;
  return out;
}
