#pragma once
// Link-rate tables, as data. Each figure's source is in docs/model.md.
#include <string>
#include <string_view>

namespace fb {

struct NvlinkGeneration {
  int version;
  std::string_view products;
  double signal_gbps;  // per link per direction as nvidia-smi prints it (raw)
  double data_gbps;    // per link per direction, payload
  double sm_fraction;  // share of the wire SM-issued copies reach (0: not measured)
  double ce_fraction;  // share of the wire copy engines reach (0: not measured)
  // What NCCL's topology models one link at (src/graph/topo.h, SM90_/SM100_NVLINK_BW), GB/s; 0: none.
  double nccl_model_gbps = 0;
  [[nodiscard]] bool sm_share_is_nccls_model() const {  // no measurement: the share is NCCL's model
    return nccl_model_gbps > 0 && sm_fraction == nccl_model_gbps / data_gbps;
  }
};

struct PcieGeneration {
  int gen;
  double gts;            // transfer rate per lane
  double gbps_per_lane;  // payload per lane per direction after line encoding
};

// One generation of AMD Infinity Fabric (xGMI) between GPUs (docs/model.md, "The xGMI model").
struct XgmiProduct {
  std::string_view name_contains;  // matched against the GPU's name
  std::string_view device_ids;     // or its PCI device id, comma separated
  std::string_view gfx;            // the chip's gfx name ("gfx942")
  double gbps_per_link;            // per direction, the product brief's figure
  double rccl_gbps_per_link;       // what RCCL's topology models a link at (what rings reach)
  int links_per_gpu;               // xGMI links of one GPU to its peers on the usual platform
  int links_per_pair;              // links between two GPUs of that platform (the fewest)
  int full_mesh_gpus = 0;          // GPUs of the usual platform when every pair has its links; 0: not a mesh
  // RCCL's model (rccl_gbps_per_link) is its topology's; where it would put the ring ceiling below
  // AMD's own acceptance line (MI350X/MI355X), the share is MI300X's measured one instead.
  [[nodiscard]] double reach_fraction() const { return rccl_gbps_per_link / gbps_per_link; }
  // The ring ceiling of k GPUs of the full mesh: each GPU's links to the other k-1 at RCCL's model
  // (docs/model.md, "The xGMI model": 2 x MI300X 48 GB/s, 4: 144, 8: 336); 0 where not a mesh.
  [[nodiscard]] double mesh_ring_gbps(int k) const {
    return full_mesh_gpus > 0 && k >= 2 && k <= full_mesh_gpus ? (k - 1) * links_per_pair * rccl_gbps_per_link
                                                               : 0;
  }
};

const NvlinkGeneration* nvlink_generation(int version);
// PCIe generation for a per-lane rate in GT/s (0 when unknown).
int pcie_gen_from_gts(double gts);
// Payload bandwidth of a PCIe link, one direction, GB/s (0 when unknown).
double pcie_gbps(int gen, int width);
// xGMI per-link rate for a GPU (by name or PCI device id); nullptr when not in the table.
const XgmiProduct* xgmi_product(const std::string& gpu_name, const std::string& device_id);

}  // namespace fb
