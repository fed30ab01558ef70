#include "analyse/net_checks.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <set>

#include "analyse/gpu_names.hpp"

namespace fb {

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
  if (!socket.empty())
    out.push_back(
        {"NET_SOCKET", Severity::warning,
         fmt::format("{}: NCCL's network connections went over TCP sockets ({})", collective,
                     fmt::join(socket, ", ")),
         "NET/IB (InfiniBand or RoCE), with GPUDirect RDMA (GDRDMA), between the hosts of a GPU cluster",
         "no usable IB/RoCE device: check that /dev/infiniband is in the container, libibverbs is "
         "installed, NCCL_IB_DISABLE and NCCL_NET are not set, or that the NCCL net plugin loads "
         "(NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET says which)"});
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
