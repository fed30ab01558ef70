#pragma once
// What a GPU model brings to its collectives when the document holds no topology of it (another
// tool's output, a GPU named by --gpu): its fabric (NVLink generation and links through NVSwitch, an
// NVLink domain across trays, a fully connected xGMI mesh, bridges that may or may not be fitted, none),
// its host link (PCIe generation and width), whether it has peer-to-peer access at all, and the
// network a datacenter gives its class. One row per model key (analyse/scope/gpu_model.hpp), each
// with its sources; docs/model.md, "GPUs without a topology", prints them.
#include <span>
#include <string_view>

namespace fb {

enum class GpuFabric {
  nvswitch,   // every GPU of the board (or of the NVLink domain) reaches the others through NVSwitch
  xgmi_mesh,  // AMD Infinity Fabric, one link between every pair of the 8-GPU platform
  bridge,     // NVLink bridges between pairs of cards: optional, so never assumed fitted
  platform,   // NVLink or xGMI, but the platform decides which pairs are joined (V100 SXM2, MI250X)
  none        // PCIe only
};

enum class PeerAccess {
  supported,       // peer-to-peer over PCIe where the platform allows it
  none_by_design,  // the driver gives these parts no peer access: host memory is their path (SHM)
  unknown
};

struct GpuHardware {
  std::string_view model;  // the model key ("H100", "A100 PCIe", "5090")
  GpuFabric fabric;
  int nvlink_version;  // 0: no NVLink (xGMI: its rates are topo/link_rates' xgmi_product)
  int links;           // NVLink links per GPU through the switch; xGMI links per GPU in the mesh
  int fabric_gpus;     // the most GPUs one fabric joins: 8 (a board), 72 (an NVL72 rack)
  int gpus_per_host;   // GPUs per host (a tray of an NVL rack holds 4)
  int pcie_gen;        // the GPU's host link; 0: not stated
  int pcie_width;
  PeerAccess p2p;
  bool nvls;  // NVLink SHARP in the switches (third-generation NVSwitch and later)
  // A datacenter's RDMA network per GPU for this class, Gb/s, the slowest and fastest reference
  // platform (0: none known): what a job across hosts is held against without the hosts' NIC facts.
  double rdma_low_gbps;
  double rdma_high_gbps;
  std::string_view source;
  std::string_view rdma_source;
};

// The row of a model key; nullptr when the table has none.
const GpuHardware* gpu_hardware(std::string_view model_key);
// The row of a GPU as a document names it ("NVIDIA GeForce RTX 5090").
const GpuHardware* gpu_hardware_of(std::string_view gpu_name);

std::span<const GpuHardware> gpu_hardware_rows();

// Whether the GPU's model has no peer-to-peer access by design.
bool no_p2p_by_design(std::string_view gpu_name);

}  // namespace fb
