#include "model/topology.hpp"

#include <array>
#include <string_view>

namespace fb {
namespace {

struct KnownDevice {
  std::string_view vendor;
  std::string_view device_id;
  std::string_view name;
};

// PCI device ids whose model is certain; sysfs reads ids, not names. 1002:74a1: the PCI ID Repository
// (pci-ids.ucw.cz) "Aqua Vanjaram [Instinct MI300X]"; 10de:2335: the 2 x H200 machine's sysfs and NVML
// (tests/fixtures/topo/h200x2, "NVIDIA H200").
constexpr std::array<KnownDevice, 2> kKnownDevices{
    {{"amd", "0x74a1", "AMD Instinct MI300X"}, {"nvidia", "0x2335", "NVIDIA H200"}}};

}  // namespace

std::string gpu_display_name(const TopoGpu& g) {
  if (!g.name.empty()) return g.name;
  for (const auto& d : kKnownDevices)
    if (d.vendor == g.vendor && d.device_id == g.device_id) return std::string(d.name);
  if (g.device_id.empty()) return "?";
  return (g.vendor == "amd" ? "AMD " : "NVIDIA ") + g.device_id;
}

const TopoPair* Topology::find_pair(int a, int b) const {
  for (const auto& p : pairs)
    if ((p.a == a && p.b == b) || (p.a == b && p.b == a)) return &p;
  return nullptr;
}

const TopoGpu* Topology::find_gpu(int index) const {
  for (const auto& g : gpus)
    if (g.index == index) return &g;
  return nullptr;
}

const TopoGpu* Topology::find_gpu_by_bus(const std::string& bus_id) const {
  for (const auto& g : gpus)
    if (g.bus_id == bus_id) return &g;
  return nullptr;
}

}  // namespace fb
