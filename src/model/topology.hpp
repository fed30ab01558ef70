#pragma once
// The machine's topology as plain data (filled by topo/ probes, embedded in every result).
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/connection.hpp"

namespace fb {

struct PcieLinkState {
  double speed_gts = 0;  // current transfer rate per lane, GT/s (0: unknown)
  double max_speed_gts = 0;
  int width = 0;  // lanes
  int max_width = 0;
  int gen = 0;  // PCIe generation derived from the rate (0: unknown)
  int max_gen = 0;
};

struct FabricLink {
  int index = 0;
  bool active = false;
  int version = 0;          // NVLink generation (0: unknown)
  std::string remote;       // bus id of the far end, when known
  std::string remote_type;  // "gpu", "switch" or "" (unknown)
};

struct TopoGpu {
  int index = 0;  // runtime ordinal when the runtime is available, else enumeration order
  std::string name;
  std::string vendor;                 // "nvidia" | "amd"
  std::string bus_id;                 // "0000:18:00.0", lower case
  std::string device_id;              // PCI device id, "0x2335"
  std::vector<std::string> pci_path;  // root complex first ("pci0000:00"), the GPU last
  int numa_node = -1;                 // -1: unknown
  std::string cpulist;                // CPUs local to the GPU ("0-31")
  PcieLinkState pcie;
  std::vector<FabricLink> links;  // NVLinks (empty: none or not readable)
};

// The GPU's name as read, else its model from its PCI device id where that is known (sysfs alone
// names no model: "AMD Instinct MI300X" for 0x74a1), else "AMD 0x74a1"; "?" with neither.
std::string gpu_display_name(const TopoGpu& g);

struct TopoPair {
  int a = 0;
  int b = 0;
  Connection connection;   // NV18, XGMI, or the PCIe class; "?" unknown
  std::string pcie_class;  // the PCIe path class alone (what traffic takes without the fabric)
  int links = 0;           // fabric links between the pair (through a switch: the smaller side)
  double link_gbps = 0;    // one direction, per link
  double wire_gbps = 0;    // theoretical one-direction peak of the path
  std::string limit;       // what sets wire_gbps
  // What each kind of traffic reaches on that wire, where measured (docs/model.md); 0: unknown.
  double sm_ceiling_gbps = 0;
  double ce_ceiling_gbps = 0;
  std::optional<bool> p2p;  // peer access; nullopt: could not be read
  std::string p2p_detail;   // e.g. "runtime: rank 0" or the NVML status
};

struct Topology {
  std::vector<TopoGpu> gpus;
  std::vector<TopoPair> pairs;
  std::map<int, std::string> numa_cpulists;  // NUMA node -> CPUs
  std::vector<std::string> sources;          // what was read: "sysfs", "NVML", "CUDA runtime", ...
  std::vector<std::string> missing;          // what could not be read, and why

  // The pair of GPUs a and b (runtime indices, either order); nullptr when there is none.
  [[nodiscard]] const TopoPair* find_pair(int a, int b) const;
  // The GPU with runtime index `index`; nullptr when there is none.
  [[nodiscard]] const TopoGpu* find_gpu(int index) const;
  // The GPU at PCI address `bus_id` (as sysfs writes it); nullptr when there is none.
  [[nodiscard]] const TopoGpu* find_gpu_by_bus(const std::string& bus_id) const;
};

}  // namespace fb
