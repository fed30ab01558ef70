#pragma once
// Reads the GPUs' PCIe placement from sysfs, for every vendor: PCI path to the root complex,
// link speed and width (current and max), NUMA node, local CPUs, and the NUMA nodes' CPUs.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "core/topology.hpp"

namespace fb {

struct SysfsReadout {
  std::vector<TopoGpu> gpus;  // sorted by bus id; index = position
  std::map<int, std::string> numa_cpulists;
  std::vector<std::string> missing;
};

// `root` is the directory holding sys/ ("/" on a live machine, a fixture folder in tests).
SysfsReadout read_sysfs(const std::filesystem::path& root);

// "0000:18:00.0" from "00000000:18:00.0", "0000:18:00.0" or "18:00.0"; lower case.
std::string normalize_bus_id(const std::string& bus_id);

}  // namespace fb
