#pragma once
// The network NCCL used between processes, read from its transports ("NET/Socket/0",
// "NET/IB/0/GDRDMA", "NET/IB/1"; comm/nccl_log.hpp): a fall-back to TCP sockets, and
// InfiniBand/RoCE without GPUDirect RDMA.
//   NET_SOCKET   NCCL's network traffic went over TCP sockets, not InfiniBand/RoCE (warning)
//   NET_NO_GDR   NET/IB without GPUDirect RDMA: data staged through host memory (warning)
#include <vector>

#include "model/result.hpp"

namespace fb {

std::vector<Finding> check_net_transport(const Result& r);

}  // namespace fb
