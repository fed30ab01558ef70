#pragma once
// Rules over the host's network ports (result.host.config.network, model/nic_facts.hpp). Each
// finding cites the ports (name, kind, rate, state, NUMA node, PCI path) and the fix. Warning
// where it costs NCCL's network bandwidth (IB/RoCE ports), info for plain Ethernet.
//   NIC_PORT_DOWN      a port whose state is not up: IB/RoCE not ACTIVE (warning), Ethernet
//                      operstate down (info)
//   NIC_RATE_MISMATCH  up ports of one kind at different link rates (warning for IB/RoCE: a ring
//                      runs at its slowest NIC; info for Ethernet)
//   NIC_FAR_FROM_GPU   a GPU of the run whose nearest up IB/RoCE port is on another NUMA node
//                      (warning: its traffic crosses the CPU interconnect)
//   NIC_NO_GDR         IB/RoCE ports but no GPUDirect RDMA: no peer-memory module and no dma-buf
//                      (warning); nothing while either is unknown
// A document without network facts, or a host without ports, gives no finding.
#include <string>
#include <vector>

#include "model/result.hpp"

namespace fb {

std::vector<Finding> check_nics(const Result& r);

// "mlx5_3:1 (IB, 400 Gb/s, DOWN/Disabled, NUMA 0, pci0000:00/0000:00:01.0/0000:01:00.0)".
std::string describe_port(const NicPort& p);

// The up IB/RoCE ports of the document's host; empty without network facts.
std::vector<const NicPort*> up_rdma_ports(const Result& r);

}  // namespace fb
