// libFuzzer target: the values of sysfs attribute files (vendor/class hex, link speed, width,
// NUMA node, node<N> names, CPU lists, bus ids). Each line of the input is tried as every kind.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/cpu_affinity.hpp"
#include "topo/link_rates.hpp"
#include "topo/sysfs_probe.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  while (!rest.empty()) {
    const auto end = rest.find('\n');
    const std::string line(rest.substr(0, end));
    (void)fb::sysfs_hex(line);
    const double gts = fb::sysfs_number(line, 0);
    (void)fb::pcie_gen_from_gts(gts);
    (void)fb::sysfs_int(line, -1);
    if (const auto node = fb::numa_node_number(line); node && (*node < 0 || *node > 4095)) __builtin_trap();
    (void)fb::parse_cpulist(line);
    (void)fb::normalize_bus_id(line);
    if (end == std::string_view::npos) break;
    rest.remove_prefix(end + 1);
  }
  return 0;
}
