#include "topo/host_probe.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <fstream>
#include <set>
#include <sstream>

#include "core/text.hpp"
#include "topo/host_probe_pci.hpp"
#include "topo/nic_probe.hpp"
#include "topo/nvml_probe.hpp"
#include "topo/sysfs_probe.hpp"

namespace fb {
namespace fs = std::filesystem;
namespace {

constexpr std::size_t kKernelLogLimit = 16U << 20;  // read at most this much of the kernel log
constexpr std::size_t kXidLinesKept = 20;

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\t')) s.pop_back();
  return s;
}

// A captured tree (a root other than "/") without the file: the capture did not take it.
bool captured_lacks(const fs::path& root, const std::string& live_path) {
  std::error_code ec;
  return root != fs::path("/") && !fs::exists(root / live_path.substr(1), ec);
}

// The file's first line as a fact named by its live path ("/proc/...").
HostFact read_line_fact(const fs::path& root, const std::string& live_path) {
  HostFact f;
  f.source = live_path;
  std::ifstream in(root / live_path.substr(1));
  std::string line;
  if (in && std::getline(in, line)) f.value = trimmed(line);
  if (!f.known()) f.note = captured_lacks(root, live_path) ? kNotCaptured : "not readable";
  return f;
}

HostFact read_iommu_units(const fs::path& root) {
  HostFact f{"", "/sys/class/iommu", ""};
  std::error_code ec;
  std::vector<std::string> units;
  for (const auto& e : fs::directory_iterator(root / "sys/class/iommu", ec))
    units.push_back(e.path().filename());
  std::sort(units.begin(), units.end());
  std::string joined;
  for (const auto& u : units) joined += (joined.empty() ? "" : ",") + u;
  f.value = joined.empty() ? "none" : joined;
  if (ec) f.note = "no /sys/class/iommu: no IOMMU registered with the kernel";
  return f;
}

// "65536k", "64m", "1g", "1073741824" (tmpfs size= option) in bytes; 0 when not a size.
std::uint64_t tmpfs_size_bytes(const std::string& text) {
  if (text.empty() || text.back() == '%') return 0;
  std::uint64_t scale = 1;
  switch (static_cast<char>(std::tolower(static_cast<unsigned char>(text.back())))) {
    case 'k':
      scale = 1ULL << 10;
      break;
    case 'm':
      scale = 1ULL << 20;
      break;
    case 'g':
      scale = 1ULL << 30;
      break;
    default:
      break;
  }
  try {
    return std::stoull(text) * scale;
  } catch (const std::exception&) {
    return 0;
  }
}

// /dev/shm's size: the size= option of its mount where it has one (containers: docker's
// --shm-size), else statvfs on the live machine.
HostFact read_shm(const fs::path& root) {
  std::ifstream mounts(root / "proc/mounts");
  std::string device, mount_point, type, options;
  std::string line;
  while (std::getline(mounts, line)) {
    std::istringstream fields(line);
    if (!(fields >> device >> mount_point >> type >> options) || mount_point != "/dev/shm") continue;
    for (const auto& option : split(options, ','))
      if (option.rfind("size=", 0) == 0)
        if (const auto bytes = tmpfs_size_bytes(option.substr(5)); bytes > 0)
          return {std::to_string(bytes), "/proc/mounts (/dev/shm " + option + ")", ""};
  }
  struct statvfs st {};
  if (root == fs::path("/") && ::statvfs("/dev/shm", &st) == 0)
    return {std::to_string(static_cast<std::uint64_t>(st.f_blocks) * st.f_frsize), "statvfs(/dev/shm)", ""};
  if (captured_lacks(root, "/proc/mounts")) return {"", "/dev/shm", kNotCaptured};
  return {"", "/dev/shm", "no /dev/shm mount with a size"};
}

// The kernel log as /dev/kmsg gives it: one record per read, EAGAIN at the end (a fixture file
// ends with a 0-byte read instead).
bool read_kernel_log(const fs::path& path, std::string& text) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return false;
  std::array<char, 8192> buf{};
  while (text.size() < kKernelLogLimit) {
    const auto n = ::read(fd, buf.data(), buf.size());
    if (n > 0) {
      text.append(buf.data(), static_cast<std::size_t>(n));
      if (text.back() != '\n') text += '\n';
      continue;
    }
    if (n < 0 && (errno == EINTR || errno == EPIPE)) continue;  // EPIPE: records overwritten
    break;
  }
  ::close(fd);
  return true;
}

void read_xids(const fs::path& root, HostFacts& out) {
  out.xid_count.source = "/dev/kmsg";
  std::string log;
  if (!read_kernel_log(root / "dev/kmsg", log)) {
    out.xid_count.note = captured_lacks(root, "/dev/kmsg")
                             ? kNotCaptured
                             : "kernel log not readable (needs root or CAP_SYSLOG)";
    return;
  }
  std::vector<std::string> xids;
  for (const auto& line : split(log, '\n'))
    if (line.find("NVRM: Xid") != std::string::npos) xids.push_back(line);
  out.xid_count.value = std::to_string(xids.size());
  const auto keep = std::min(xids.size(), kXidLinesKept);
  out.xid_lines.assign(xids.end() - static_cast<std::ptrdiff_t>(keep), xids.end());
}

fs::path device_dir(const fs::path& root, const std::vector<std::string>& pci_path, std::size_t depth) {
  fs::path p = root / "sys/devices";
  for (std::size_t i = 0; i <= depth; ++i) p /= pci_path[i];
  return p;
}

HostFact read_acs(const fs::path& dir, const std::string& bus_id, bool captured) {
  HostFact f{"", "/sys/bus/pci/devices/" + bus_id + "/config", ""};
  std::ifstream in(dir / "config", std::ios::binary);
  if (!in) {
    f.note = captured ? kNotCaptured : "no config file";
    return f;
  }
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto acs = find_acs_control(bytes);
  if (acs.read == AcsRead::control) f.value = fmt::format("{:#06x}", acs.control);
  if (acs.read == AcsRead::no_capability) f.value = "none";
  if (acs.read == AcsRead::truncated)
    f.note = fmt::format("not readable without root (sysfs gave {} bytes of config space)", bytes.size());
  return f;
}

// Every bridge between the root complex and a GPU: the PCI path without its host bridge
// ("pci0000:00") and the GPU itself.
void read_bridges(const fs::path& root, const std::vector<TopoGpu>& gpus, HostFacts& out) {
  std::set<std::string> seen;
  for (const auto& g : gpus)
    for (std::size_t i = 1; i + 1 < g.pci_path.size(); ++i) {
      const auto bus_id = normalize_bus_id(g.pci_path[i]);
      if (!seen.insert(bus_id).second) continue;
      out.bridges.push_back(
          {bus_id, read_acs(device_dir(root, g.pci_path, i), bus_id, root != fs::path("/"))});
    }
}

HostFact read_iommu_group_type(const fs::path& dev, const std::string& bus_id) {
  HostFact f{"", "/sys/bus/pci/devices/" + bus_id + "/iommu_group/type", ""};
  std::error_code ec;
  if (!fs::exists(dev / "iommu_group", ec)) {
    f.value = "none";
    f.note = "no IOMMU group: the IOMMU is off for this device";
    return f;
  }
  std::ifstream in(dev / "iommu_group/type");
  std::string line;
  if (in && std::getline(in, line))
    f.value = trimmed(line);
  else
    f.note = "iommu_group/type not readable (kernels before 5.11 lack it)";
  return f;
}

}  // namespace

HostFacts read_host_files(const fs::path& root, const std::vector<TopoGpu>& gpus) {
  HostFacts out;
  out.numa_balancing = read_line_fact(root, "/proc/sys/kernel/numa_balancing");
  out.kernel_cmdline = read_line_fact(root, "/proc/cmdline");
  out.iommu_units = read_iommu_units(root);
  out.shm_bytes = read_shm(root);
  read_xids(root, out);
  read_bridges(root, gpus, out);
  out.network = read_network(root, gpus);
  for (const auto& g : gpus) {
    GpuHostFacts facts;
    facts.bus_id = g.bus_id;
    if (!g.pci_path.empty())
      facts.iommu_group_type =
          read_iommu_group_type(device_dir(root, g.pci_path, g.pci_path.size() - 1), g.bus_id);
    out.gpus.push_back(std::move(facts));
  }
  return out;
}

HostFacts probe_host(const fs::path& root, const std::vector<TopoGpu>& gpus, bool with_nvml) {
  HostFacts out = read_host_files(root, gpus);
  if (!with_nvml) return out;
  std::string why;
  const auto health = read_nvml_health(why);
  for (auto& g : out.gpus) {
    const auto it = health ? health->find(g.bus_id) : std::map<std::string, GpuHostFacts>::const_iterator{};
    if (health && it != health->end()) {
      GpuHostFacts readings = it->second;
      readings.bus_id = g.bus_id;
      readings.iommu_group_type = g.iommu_group_type;
      g = std::move(readings);
      continue;
    }
    const HostFact absent{"", "NVML", health ? "NVML does not list this GPU" : why};
    g.persistence_mode = g.clocks_event_reasons = g.ecc_uncorrected_volatile = absent;
    g.sm_clock_max_mhz = g.sm_clock_target_mhz = absent;
    g.remapped_rows_pending = g.remapped_rows_failure = g.retired_pages_pending = absent;
  }
  return out;
}

}  // namespace fb
