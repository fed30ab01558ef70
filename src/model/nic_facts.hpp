#pragma once
// The host's network ports as read from sysfs (topo/nic_probe.hpp reads them; the document's
// `host.config.network`): InfiniBand/RoCE ports and Ethernet interfaces on a PCI device, their
// rate, state, NUMA node and PCIe distance to each GPU, and whether GPUDirect RDMA can work.
#include <string>
#include <vector>

#include "model/host_fact.hpp"

namespace fb {

// A port's PCIe path class to one GPU (topo/pcie_class.hpp's words: PIX, PXB, PHB, NODE, SYS).
struct NicGpuPath {
  std::string bus_id;      // the GPU's
  std::string path_class;  // "" when either path is unknown
};

struct NicPort {
  std::string name;        // "mlx5_0:1" (device:port) for IB/RoCE, the interface ("eth0") for Ethernet
  std::string kind;        // "IB" | "RoCE" | "Ethernet"
  std::string netdev;      // the interface that goes with an IB/RoCE port ("ib0"); "" when none
  double rate_gbps = 0;    // link rate in Gb/s (1e9 bit/s); 0: unknown (Ethernet speed -1)
  std::string state;       // as read: "ACTIVE", "DOWN", "INIT" (IB/RoCE); operstate "up", "down" (Ethernet)
  std::string phys_state;  // IB/RoCE: "LinkUp", "Disabled", "Polling"; "" for Ethernet
  bool up = false;         // ACTIVE, or operstate "up"
  int numa_node = -1;      // -1: unknown
  std::string bus_id;      // the PCI function the port sits on
  std::vector<std::string> pci_path;  // root complex first, the NIC's function last
  std::vector<NicGpuPath> gpus;       // the distance to each GPU of the topology
  std::string source;                 // "/sys/class/infiniband/mlx5_0/ports/1", "/sys/class/net/eth0"
};

struct NetworkFacts {
  bool read = false;           // false: not looked for (documents before 2026-12-03)
  std::vector<NicPort> ports;  // IB/RoCE first, then Ethernet; each by name
  HostFact gdr_peer_module;    // "nvidia_peermem" | "nv_peer_mem" | "none" (/sys/module)
  HostFact gdr_dma_buf;        // "possible" | "not possible": kernel >= 5.12 and NVIDIA's open kernel module
};

// IB or RoCE: a port NCCL's NET/IB can use.
inline bool is_rdma_port(const NicPort& p) { return p.kind == "IB" || p.kind == "RoCE"; }

}  // namespace fb
