#pragma once
// Reads the GPUs' PCIe placement from sysfs, for every vendor: PCI path to the root complex,
// link speed and width (current and max), NUMA node, local CPUs, and the NUMA nodes' CPUs.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/topology.hpp"

namespace fb {

struct SysfsReadout {
  std::vector<TopoGpu> gpus;  // sorted by bus id; index = position
  std::map<int, std::string> numa_cpulists;
  std::vector<std::string> missing;
};

// `root` is the directory holding sys/ ("/" on a live machine, a fixture folder in tests).
SysfsReadout read_sysfs(const std::filesystem::path& root);

// The first line of a sysfs attribute, trailing space removed, non-ASCII bytes as '?'; empty when
// absent or unreadable. A FIFO, device or oversized file in a captured tree is refused
// (Error(usage)), never waited on.
std::string read_sysfs_line(const std::filesystem::path& p);

// "0000:18:00.0" from "00000000:18:00.0", "0000:18:00.0" or "18:00.0"; lower case.
std::string normalize_bus_id(const std::string& bus_id);

// The values of sysfs attribute files, as read from a line of text (exposed for the fuzz
// target): "0x10de" -> 0x10de (0 when unreadable); "32.0 GT/s PCIe" -> 32 (`fallback` when not a
// finite number); a whole number in int's range, else `fallback`; "node3" -> 3 (nullopt for other
// names and for nodes above 4095).
unsigned sysfs_hex(std::string_view line);
double sysfs_number(std::string_view line, double fallback);
int sysfs_int(std::string_view line, int fallback);
std::optional<int> numa_node_number(const std::string& name);

}  // namespace fb
