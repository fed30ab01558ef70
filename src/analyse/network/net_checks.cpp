#include "analyse/network/net_checks.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>

#include "analyse/network/nic_checks.hpp"
#include "analyse/scope/gpu_names.hpp"

namespace fb {
namespace {

// NET_SOCKET's evidence and hint, sharper where the host's IB/RoCE ports are known to be up.
Finding socket_finding(const Result& r, const std::string& collective, const std::set<std::string>& socket) {
  Finding f{"NET_SOCKET", Severity::warning,
            fmt::format("{}: NCCL's network connections went over TCP sockets ({})", collective,
                        fmt::join(socket, ", ")),
            "NET/IB (InfiniBand or RoCE), with GPUDirect RDMA (GDRDMA), between the hosts of a GPU cluster",
            "no usable IB/RoCE device: check that /dev/infiniband is in the container, libibverbs is "
            "installed, NCCL_IB_DISABLE and NCCL_NET are not set, or that the NCCL net plugin loads "
            "(NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET says which)"};
  const auto ports = up_rdma_ports(r);
  if (ports.empty()) return f;
  std::vector<std::string> names;
  names.reserve(ports.size());
  for (const auto* p : ports) names.push_back(describe_port(*p));
  f.evidence += fmt::format(", although IB/RoCE ports are up: {}", fmt::join(names, "; "));
  f.hint =
      "the host's IB/RoCE ports are up but NCCL did not use them: " + f.hint.substr(f.hint.find(':') + 2);
  return f;
}

// Whether the document cannot tell if its GPUs sit on one host: no GPU names a host and the host is unnamed
// (another tool's output without its "# Rank" lines).
bool hosts_unknown(const Result& r) {
  return r.host.hostname.empty() &&
         std::all_of(r.gpus.begin(), r.gpus.end(), [](const GpuInfo& g) { return g.host.empty(); });
}

// "Using network Socket" with no transport lines: NCCL's network is sockets; it joins hosts only, so it is
// said where the GPUs span hosts or the document cannot tell; "" otherwise.
std::string socket_network(const Result& r, const Run& run) {
  const bool socket_lines = std::any_of(run.nccl_transports.begin(), run.nccl_transports.end(),
                                        [](const std::string& t) { return t.starts_with("NET/Socket"); });
  if (socket_lines || !run.nccl_network.starts_with("Socket") || run.gpus.size() < 2) return "";
  if (spans_hosts(r)) return "\"Using network " + run.nccl_network + "\"";
  if (hosts_unknown(r))
    return "\"Using network " + run.nccl_network + "\", on GPUs whose hosts the output does not name";
  return "";
}

}  // namespace

std::vector<Finding> check_net_transport(const Result& r) {
  std::set<std::string> socket;
  std::set<std::string> ib_without_gdr;
  std::string collective;
  for (const auto& run : r.runs) {
    if (const auto said = socket_network(r, run); !said.empty()) {
      socket.insert(said);
      if (collective.empty()) collective = run.collective;
    }
    for (const auto& t : run.nccl_transports) {
      if (t.starts_with("NET/Socket")) socket.insert(t);
      if (t.starts_with("NET/IB") && t.find("GDRDMA") == std::string::npos) ib_without_gdr.insert(t);
      // Across hosts the GPUs are named, host:index: which hosts' traffic it was.
      if (collective.empty() && t.starts_with("NET/"))
        collective =
            spans_hosts(r) ? fmt::format("{} on {}", run.collective, run_gpu_list(r, run)) : run.collective;
    }
  }
  std::vector<Finding> out;
  if (!socket.empty()) out.push_back(socket_finding(r, collective, socket));
  if (!ib_without_gdr.empty())
    out.push_back(
        {"NET_NO_GDR", Severity::warning,
         fmt::format("{}: NCCL used InfiniBand/RoCE without GPUDirect RDMA ({})", collective,
                     fmt::join(ib_without_gdr, ", ")),
         "NET/IB/<n>/GDRDMA: the NIC reads and writes GPU memory directly",
         "load nvidia-peermem (or use a kernel and NCCL with DMA-BUF), and check that each GPU and its NIC "
         "share a PCIe switch (NCCL_NET_GDR_LEVEL limits how far apart they may be)"});
  return out;
}

}  // namespace fb
