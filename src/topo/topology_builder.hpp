#pragma once
// Combines what each probe read into one Topology: the GPUs, every pair's connection class,
// link count, theoretical one-direction peak, what limits it, and peer access.
#include <optional>
#include <string>
#include <vector>

#include "model/topology.hpp"
#include "topo/nvml_readout.hpp"
#include "topo/smi_text.hpp"
#include "topo/sysfs_probe.hpp"

namespace fb {

// What the GPU runtime says, by runtime ordinal.
struct RuntimePeers {
  std::string runtime = "CUDA";  // which runtime answered: "CUDA" or "HIP" (gpu::runtime_name)
  std::vector<std::string> bus_ids;
  std::vector<std::string> names;
  std::vector<std::vector<int>> access;  // [a][b]: 1 peer access, 0 none
  std::vector<std::vector<int>> rank;    // [a][b]: performance rank (lower is better), -1 unknown
};

struct TopologyInputs {
  SysfsReadout sysfs;
  std::optional<NvmlReadout> nvml;
  std::optional<RocmSmiTopo> amd;  // ROCm SMI (library: matched by bus id; text: AMD GPUs in bus order)
  std::optional<RuntimePeers> runtime;
  std::vector<std::string> sources;
  std::vector<std::string> missing;
};

Topology build_topology(const TopologyInputs& in);

}  // namespace fb
