#pragma once
// What the IB/RoCE network between the hosts of a run carries (issue 42), from each host's NIC facts
// (its `hosts` section's host.config.network, else the document's own for every host, said): on
// each host, the up IB/RoCE ports NCCL would use for the run's GPUs (those under a run GPU's PCIe
// switch, PIX or PXB; every up port where none is, or where the distances are unknown; only those
// NCCL's log names, where it names them), each at what a ring reaches over it
// (analyse/expect/port_figures.hpp, two thirds of it when staged through host memory: no GPUDirect RDMA,
// or no port under a GPU's switch). A ring across hosts is bound by its weakest host's sum.
// Pure: the document in, the bound out.
#include <map>
#include <string>
#include <vector>

#include "analyse/expect/net_used.hpp"
#include "model/result.hpp"

namespace fb {

struct CountedPort {
  std::string name;  // "mlx5_0:1"
  std::string kind;  // "IB" | "RoCE"
  double rate_gbps = 0;
  double gbps = 0;      // what a ring reaches over it, busbw GB/s
  bool staged = false;  // through host memory: two thirds of the figure
  std::string cite;     // the per-port figure's source, short
};

struct HostBound {
  std::string host;
  std::vector<std::string> bus_ids;  // the run's GPUs on this host (normalized), in rank order
  std::vector<CountedPort> ports;
  double ring_gbps = 0;                          // the ports' sum: a ring's bound on this host
  std::map<std::string, double> gpu_port_gbps;   // per run GPU: the figure of the port that serves it
  std::string layout;                            // which GPUs the ports serve, in words
  std::string gdr;                               // GPUDirect RDMA, in words
  bool assumed = false;                          // the facts are another host's (the document's own)
  [[nodiscard]] std::string ports_text() const;  // "8 x IB 400 Gb/s + 1 x IB 200 Gb/s (staged)"
};

struct NetworkBound {
  NetworkUsed used;
  std::string unknown;              // why there is no bound; "" when there is one
  std::vector<HostBound> hosts;     // the hosts whose network was read, in rank order
  std::vector<std::string> unread;  // the run's hosts whose network was not read
  std::size_t weakest = 0;          // index into `hosts` of the lowest ring bound
  [[nodiscard]] bool known() const { return unknown.empty() && !hosts.empty(); }
  [[nodiscard]] const HostBound& limit() const { return hosts.at(weakest); }
  [[nodiscard]] bool uneven() const;  // the hosts' ring bounds differ
};

NetworkBound network_bound(const Result& r, const Run& run);

// The run's hosts in rank order, each with its GPUs in the run (device indices, normalized bus ids).
struct RunHost {
  std::string name;
  std::vector<int> ranks;  // the run's ranks on this host
  std::vector<int> indices;
  std::vector<std::string> bus_ids;
};
std::vector<RunHost> run_hosts(const Result& r, const Run& run);

}  // namespace fb
