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
};

// Both throw Error(usage) naming what is malformed.
NvidiaSmiTopo parse_nvidia_smi_topo(const std::string& text);
RocmSmiTopo parse_rocm_smi_topo(const std::string& text);

}  // namespace fb
