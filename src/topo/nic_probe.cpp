#include "topo/nic_probe.hpp"

#include <algorithm>
#include <cctype>
#include <system_error>

#include "topo/gdr_probe.hpp"
#include "topo/pcie_class.hpp"
#include "topo/sysfs_probe.hpp"

namespace fb {
namespace fs = std::filesystem;
namespace {

// ARPHRD_INFINIBAND: an IPoIB interface, listed with its IB port rather than as Ethernet.
constexpr int kArpInfiniband = 32;
constexpr double kMbitPerGbit = 1000;
constexpr std::size_t kMaxPorts = 4096;  // more is a malformed tree, not a machine

// "0000:18:00.0": a PCI function's directory name.
bool is_pci_function(const std::string& name) {
  return name.size() == 12 && name[4] == ':' && name[7] == ':' && name[10] == '.';
}

// The PCI function a class device sits on, as path components below sys/devices (root complex
// first). A virtio NIC's `device` is the virtio device: its PCI function is an ancestor.
std::vector<std::string> pci_path_of(const fs::path& root, const fs::path& class_entry) {
  std::error_code ec;
  const auto dev = fs::canonical(class_entry / "device", ec);
  if (ec) return {};
  const auto rel = fs::relative(dev, fs::canonical(root / "sys/devices", ec), ec);
  if (ec) return {};
  std::vector<std::string> parts;
  std::size_t last_function = 0;
  for (const auto& part : rel) {
    parts.push_back(part.string());
    if (is_pci_function(parts.back())) last_function = parts.size();
  }
  if (parts.empty() || !parts.front().starts_with("pci") || last_function == 0) return {};
  parts.resize(last_function);
  return parts;
}

// Where the port sits: its PCI function, NUMA node, and PCIe path class to each GPU.
void place_port(const fs::path& root, const fs::path& class_entry, const std::vector<TopoGpu>& gpus,
                NicPort& p) {
  p.pci_path = pci_path_of(root, class_entry);
  if (p.pci_path.empty()) return;
  p.bus_id = p.pci_path.back();
  fs::path dev = root / "sys/devices";
  for (const auto& part : p.pci_path) dev /= part;
  p.numa_node = sysfs_int(read_sysfs_line(dev / "numa_node"), -1);
  // pcie_class compares GPUs: the NIC takes a GPU's shape for it.
  TopoGpu as_device;
  as_device.pci_path = p.pci_path;
  as_device.numa_node = p.numa_node;
  as_device.cpulist = read_sysfs_line(dev / "local_cpulist");
  for (const auto& g : gpus) p.gpus.push_back({g.bus_id, pcie_class(as_device, g)});
}

std::vector<std::string> sorted_names(const fs::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// The interface of an IB/RoCE port: RoCE's GID table names it; else the one on its PCI function.
std::string port_netdev(const fs::path& dev_dir, const fs::path& port_dir) {
  auto name = read_sysfs_line(port_dir / "gid_attrs/ndevs/0");
  if (!name.empty()) return name;
  const auto on_function = sorted_names(dev_dir / "device/net");
  return on_function.empty() ? "" : on_function.front();
}

NicPort read_ib_port(const fs::path& dev_dir, const std::string& port) {
  const auto dir = dev_dir / "ports" / port;
  NicPort p;
  p.name = dev_dir.filename().string() + ":" + port;
  p.source = "/sys/class/infiniband/" + p.name.substr(0, p.name.find(':')) + "/ports/" + port;
  p.kind = read_sysfs_line(dir / "link_layer") == "Ethernet" ? "RoCE" : "IB";
  p.rate_gbps = sysfs_number(read_sysfs_line(dir / "rate"), 0);  // "400 Gb/sec (4X NDR)"
  p.state = ib_state_word(read_sysfs_line(dir / "state"));
  p.phys_state = ib_state_word(read_sysfs_line(dir / "phys_state"));
  p.up = p.state == "ACTIVE";
  p.netdev = port_netdev(dev_dir, dir);
  return p;
}

void read_ib_ports(const fs::path& root, const std::vector<TopoGpu>& gpus, NetworkFacts& out) {
  const auto cls = root / "sys/class/infiniband";
  for (const auto& dev : sorted_names(cls))
    for (const auto& port : sorted_names(cls / dev / "ports")) {
      if (out.ports.size() == kMaxPorts) return;
      auto p = read_ib_port(cls / dev, port);
      place_port(root, cls / dev, gpus, p);
      out.ports.push_back(std::move(p));
    }
}

bool taken_by_ib_port(const NetworkFacts& out, const std::string& netdev) {
  return std::any_of(out.ports.begin(), out.ports.end(),
                     [&](const NicPort& p) { return p.netdev == netdev; });
}

// Interfaces on a device (not lo, bridges, veth, docker, ifb: they have no `device`), other
// than the IPoIB and RoCE interfaces their IB port already stands for.
void read_ethernet(const fs::path& root, const std::vector<TopoGpu>& gpus, NetworkFacts& out) {
  const auto cls = root / "sys/class/net";
  std::error_code ec;
  for (const auto& name : sorted_names(cls)) {
    const auto dir = cls / name;
    if (!fs::exists(dir / "device", ec) || out.ports.size() == kMaxPorts) continue;
    if (sysfs_int(read_sysfs_line(dir / "type"), 0) == kArpInfiniband || taken_by_ib_port(out, name))
      continue;
    NicPort p;
    p.name = name;
    p.kind = "Ethernet";
    p.source = "/sys/class/net/" + name;
    const double mbits = sysfs_number(read_sysfs_line(dir / "speed"), 0);  // -1 when the driver does not say
    p.rate_gbps = mbits > 0 ? mbits / kMbitPerGbit : 0;
    p.state = read_sysfs_line(dir / "operstate");
    p.up = p.state == "up";
    place_port(root, dir, gpus, p);
    out.ports.push_back(std::move(p));
  }
}

}  // namespace

std::string ib_state_word(const std::string& line) {
  const auto colon = line.find(':');
  const bool numbered = colon != std::string::npos && colon > 0 &&
                        std::all_of(line.begin(), line.begin() + static_cast<std::ptrdiff_t>(colon),
                                    [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
  if (!numbered) return line;
  auto word = line.substr(colon + 1);
  while (!word.empty() && word.front() == ' ') word.erase(0, 1);
  return word;
}

NetworkFacts read_network(const fs::path& root, const std::vector<TopoGpu>& gpus) {
  NetworkFacts out;
  out.read = true;
  read_ib_ports(root, gpus, out);
  read_ethernet(root, gpus, out);
  out.gdr_peer_module = read_gdr_peer_module(root);
  out.gdr_dma_buf = read_gdr_dma_buf(root);
  return out;
}

}  // namespace fb
