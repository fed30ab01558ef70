#include "topo/sysfs_probe.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>
#include <optional>
#include <string_view>

#include "core/error.hpp"
#include "core/file_io.hpp"
#include "core/parse_number.hpp"
#include "topo/link_rates.hpp"

namespace fb {
namespace fs = std::filesystem;

std::string read_sysfs_line(const fs::path& p) {
  const auto text = read_file_if_readable(p.string(), kMaxSysfsBytes);
  std::string line = text ? text->substr(0, text->find('\n')) : std::string();
  while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
  // sysfs attributes are ASCII; anything else (invalid UTF-8 in a captured tree) becomes '?'
  // here, so that no document written later carries it.
  for (char& c : line)
    if (static_cast<unsigned char>(c) >= 0x80 || std::iscntrl(static_cast<unsigned char>(c))) c = '?';
  return line;
}

namespace {

constexpr unsigned kVendorNvidia = 0x10de;
constexpr unsigned kVendorAmd = 0x1002;
// More GPUs than any machine has is a malformed tree (docs/cli.md, "Limits").
constexpr std::size_t kMaxTopoGpus = 4096;
// NUMA node numbers above this are skipped (Linux allows at most 1024 nodes).
constexpr int kMaxNumaNode = 4095;

std::string read_line(const fs::path& p) { return read_sysfs_line(p); }
unsigned read_hex(const fs::path& p) { return sysfs_hex(read_line(p)); }
double read_number(const fs::path& p, double fallback) { return sysfs_number(read_line(p), fallback); }
int read_int(const fs::path& p, int fallback) { return sysfs_int(read_line(p), fallback); }

bool is_gpu(unsigned vendor, unsigned pci_class) {
  // Display controllers: VGA (0x0300), 3D (0x0302), other display (0x0380, AMD Instinct).
  const bool display = (pci_class >> 16) == 0x03;
  return display && (vendor == kVendorNvidia || vendor == kVendorAmd);
}

// Path components below sys/devices: "pci0000:00", "0000:00:01.0", ..., the GPU.
std::vector<std::string> pci_path(const fs::path& devices_dir, const fs::path& device) {
  std::vector<std::string> out;
  std::error_code ec;
  const auto rel = fs::relative(fs::canonical(device, ec), fs::canonical(devices_dir, ec), ec);
  if (ec) return out;
  for (const auto& part : rel) out.push_back(part.string());
  return out;
}

PcieLinkState read_pcie(const fs::path& dev) {
  PcieLinkState p;
  p.speed_gts = read_number(dev / "current_link_speed", 0);
  p.max_speed_gts = read_number(dev / "max_link_speed", 0);
  p.width = read_int(dev / "current_link_width", 0);
  p.max_width = read_int(dev / "max_link_width", 0);
  p.gen = pcie_gen_from_gts(p.speed_gts);
  p.max_gen = pcie_gen_from_gts(p.max_speed_gts);
  return p;
}

TopoGpu read_gpu(const fs::path& dev, const fs::path& devices_dir) {
  TopoGpu g;
  g.vendor = read_hex(dev / "vendor") == kVendorNvidia ? "nvidia" : "amd";
  g.bus_id = normalize_bus_id(dev.filename().string());
  g.device_id = read_line(dev / "device");
  g.pci_path = pci_path(devices_dir, dev);
  g.numa_node = read_int(dev / "numa_node", -1);
  if (g.numa_node > kMaxNumaNode) g.numa_node = -1;
  g.cpulist = read_line(dev / "local_cpulist");
  g.pcie = read_pcie(dev);
  return g;
}

// The GPUs among the PCI devices, sorted by bus id and indexed in that order.
std::vector<TopoGpu> read_gpus(const fs::path& bus_dir, const fs::path& devices_dir) {
  std::vector<TopoGpu> gpus;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(bus_dir, ec)) {
    const auto& dev = entry.path();
    if (!is_gpu(read_hex(dev / "vendor"), read_hex(dev / "class"))) continue;
    if (gpus.size() == kMaxTopoGpus)
      FB_USAGE_ERROR(fmt::format("sysfs: {} lists more than {} GPUs", bus_dir.string(), kMaxTopoGpus));
    gpus.push_back(read_gpu(dev, devices_dir));
  }
  std::sort(gpus.begin(), gpus.end(), [](const TopoGpu& a, const TopoGpu& b) { return a.bus_id < b.bus_id; });
  for (std::size_t i = 0; i < gpus.size(); ++i) gpus[i].index = static_cast<int>(i);
  return gpus;
}

void read_numa_nodes(const fs::path& root, SysfsReadout& out) {
  const fs::path nodes = root / "sys/devices/system/node";
  std::error_code ec;
  if (!fs::is_directory(nodes, ec)) {
    out.missing.push_back("sysfs: NUMA nodes (sys/devices/system/node) not readable");
    return;
  }
  for (const auto& entry : fs::directory_iterator(nodes, ec))
    if (const auto node = numa_node_number(entry.path().filename().string()))
      out.numa_cpulists[*node] = read_line(entry.path() / "cpulist");
}

// A GPU whose numa_node reads -1 (common in VMs) belongs to the node whose CPUs are its
// local CPUs, or to the only node there is.
void place_gpus_without_numa_node(SysfsReadout& out) {
  for (auto& g : out.gpus) {
    if (g.numa_node >= 0) continue;
    if (out.numa_cpulists.size() == 1) {
      g.numa_node = out.numa_cpulists.begin()->first;
      continue;
    }
    for (const auto& [node, cpus] : out.numa_cpulists)
      if (!g.cpulist.empty() && cpus == g.cpulist) g.numa_node = node;
  }
}

}  // namespace

std::optional<int> numa_node_number(const std::string& name) {
  if (name.rfind("node", 0) != 0 || name.size() == 4) return std::nullopt;
  const char* first = name.data() + 4;
  const char* last = name.data() + name.size();
  int node = 0;
  const auto [end, ec] = std::from_chars(first, last, node);
  if (ec != std::errc{} || end != last || *first == '-' || node > kMaxNumaNode) return std::nullopt;
  return node;
}

unsigned sysfs_hex(std::string_view line) {
  const auto v = try_parse_unsigned(line, 16);
  return v && *v <= std::numeric_limits<unsigned>::max() ? static_cast<unsigned>(*v) : 0;
}

double sysfs_number(std::string_view line, double fallback) {
  return try_parse_finite(line.substr(0, line.find(' '))).value_or(fallback);  // "32.0" of "32.0 GT/s PCIe"
}

int sysfs_int(std::string_view line, int fallback) {
  const auto v = whole_from_double(sysfs_number(line, fallback));
  const bool fits = v && *v >= std::numeric_limits<int>::min() && *v <= std::numeric_limits<int>::max();
  return fits ? static_cast<int>(*v) : fallback;
}

std::string normalize_bus_id(const std::string& bus_id) {
  std::string s;
  for (char c : bus_id) s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const auto first_colon = s.find(':');
  const auto colons = std::count(s.begin(), s.end(), ':');
  if (colons == 1) return "0000:" + s;
  if (first_colon != std::string::npos && first_colon > 4) return s.substr(first_colon - 4);
  return s;
}

SysfsReadout read_sysfs(const fs::path& root) {
  SysfsReadout out;
  const fs::path bus_dir = root / "sys/bus/pci/devices";
  std::error_code ec;
  if (!fs::is_directory(bus_dir, ec)) {
    out.missing.push_back(fmt::format("sysfs: {} is not readable", bus_dir.string()));
    return out;
  }
  out.gpus = read_gpus(bus_dir, root / "sys/devices");
  read_numa_nodes(root, out);
  place_gpus_without_numa_node(out);
  return out;
}

}  // namespace fb
