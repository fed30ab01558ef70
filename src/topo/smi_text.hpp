#pragma once
// Parsers for the vendors' topology tools' text output, as printed (terminal escapes too):
//   `nvidia-smi topo -m`   connection matrix with CPU and NUMA affinity
//   `rocm-smi --showtopo`  weight, hops and link type matrices, NUMA nodes
#include <string>
#include <vector>

namespace fb {

struct NvidiaSmiTopo {
  std::vector<std::string> gpus;                 // "GPU0", ...
  std::vector<std::vector<std::string>> matrix;  // "X", "NV18", "PIX", ... (GPU columns only)
  std::vector<std::string> cpu_affinity;         // "0-31"
  std::vector<std::string> numa_affinity;        // "0" or "N/A"
};

struct RocmSmiTopo {
  int n = 0;
  std::vector<std::vector<int>> weight;
  std::vector<std::vector<int>> hops;
  std::vector<std::vector<std::string>> link_type;  // "XGMI", "PCIE", "0"/"1" on the diagonal
  std::vector<int> numa_node;                       // -1 when not printed
  // What rocm-smi's text did not give, in words (a section it did not print, cells it could not
  // read); empty when every section was there. Matrices it lacks are empty, unread cells -1.
  std::vector<std::string> unread;
  // Read only through the ROCm SMI library (empty from rocm-smi's text):
  std::string source = "rocm-smi --showtopo";      // or "ROCm SMI library (<path>)"
  std::vector<std::string> bus_ids;                // "0000:c1:00.0", by SMI index
  std::vector<std::string> names;                  // marketing names, by SMI index
  std::vector<int> pcie_gen;                       // current PCIe generation, 0 unknown
  std::vector<int> pcie_width;                     // current lanes, 0 unknown
  std::vector<std::vector<double>> xgmi_min_mbps;  // rsmi_minmax_bandwidth_get, MB/s; -1 unknown
  std::vector<std::vector<double>> xgmi_max_mbps;  // 0 from the driver: an indirect path
  std::vector<std::vector<int>> p2p;               // 1 accessible, 0 not, -1 unknown
  [[nodiscard]] bool from_library() const { return !bus_ids.empty(); }
};

// Both throw Error(usage) naming what is malformed. rocm-smi's text may lack sections (ROCm 6.1
// on a partitioned GPU prints error lines and N/A cells under the Weight heading and no Hops or
// Link Type sections): what is there is read and what is not is named in `unread`.
NvidiaSmiTopo parse_nvidia_smi_topo(const std::string& text);
RocmSmiTopo parse_rocm_smi_topo(const std::string& text);

}  // namespace fb
