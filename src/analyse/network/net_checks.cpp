#include "analyse/network/net_checks.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

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

}  // namespace

std::vector<Finding> check_net_transport(const Result& r) {
  std::set<std::string> socket;
  std::set<std::string> ib_without_gdr;
  std::string collective;
  for (const auto& run : r.runs)
    for (const auto& t : run.nccl_transports) {
      if (t.starts_with("NET/Socket")) socket.insert(t);
      if (t.starts_with("NET/IB") && t.find("GDRDMA") == std::string::npos) ib_without_gdr.insert(t);
      // Across hosts the GPUs are named, host:index: which hosts' traffic it was.
      if (collective.empty() && t.starts_with("NET/"))
        collective =
            spans_hosts(r) ? fmt::format("{} on {}", run.collective, run_gpu_list(r, run)) : run.collective;
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
