#pragma once
// Reads every source of topology this machine offers (or captured copies of them) and builds
// the Topology. Nothing here fails for a missing source: it is listed in Topology::missing.
#include <string>

#include "model/topology.hpp"

namespace fb {

struct TopologySources {
  std::string sysfs_root = "/";  // directory holding sys/
  std::string nvml_file;         // NVML readout JSON instead of live NVML (fixtures, offline)
  std::string rocm_smi_file;     // `rocm-smi --showtopo` text instead of running it
  bool use_runtime = true;       // ask the GPU runtime (peer access, ordinals)
  std::string dump_nvml_file;    // write the live NVML readout here (to capture fixtures)
};

Topology probe_topology(const TopologySources& sources);

}  // namespace fb
