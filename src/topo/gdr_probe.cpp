#include "topo/gdr_probe.hpp"

#include <fmt/format.h>

#include <limits>
#include <system_error>

#include "core/parse_number.hpp"
#include "topo/sysfs_probe.hpp"

namespace fb {
namespace fs = std::filesystem;
namespace {

// dma-buf export of GPU memory to RDMA NICs came with Linux 5.12.
constexpr std::pair<int, int> kDmaBufKernel{5, 12};

bool path_exists(const fs::path& p) {
  std::error_code ec;
  return fs::exists(p, ec);
}

// A captured tree (a root other than "/") without the path did not take it.
bool captured_lacks(const fs::path& root, const std::string& live_path) {
  return root != fs::path("/") && !path_exists(root / live_path.substr(1));
}

std::optional<int> leading_int(const std::string& text) {
  const auto digits = text.find_first_not_of("0123456789");
  const auto v = try_parse_whole(text.substr(0, digits));
  const bool fits = v && *v <= std::numeric_limits<int>::max();
  return fits ? std::optional<int>(static_cast<int>(*v)) : std::nullopt;
}

}  // namespace

std::optional<std::pair<int, int>> kernel_version(const std::string& release) {
  const auto dot = release.find('.');
  if (dot == std::string::npos) return std::nullopt;
  const auto major = leading_int(release.substr(0, dot));
  const auto minor = leading_int(release.substr(dot + 1));
  if (!major || !minor) return std::nullopt;
  return std::pair{*major, *minor};
}

HostFact read_gdr_peer_module(const fs::path& root) {
  HostFact f{"", "/sys/module", ""};
  for (const char* name : {"nvidia_peermem", "nv_peer_mem"})
    if (path_exists(root / "sys/module" / name)) {
      f.value = name;
      return f;
    }
  if (captured_lacks(root, "/sys/module"))
    f.note = kNotCaptured;
  else
    f.value = "none";
  return f;
}

HostFact read_gdr_dma_buf(const fs::path& root) {
  HostFact f{"", "/proc/sys/kernel/osrelease, /proc/driver/nvidia/version", ""};
  const auto release = read_sysfs_line(root / "proc/sys/kernel/osrelease");
  const auto driver = read_sysfs_line(root / "proc/driver/nvidia/version");
  const auto version = kernel_version(release);
  if (version && *version < kDmaBufKernel) {
    f.value = "not possible";
    f.note = fmt::format("kernel {} is older than 5.12", release);
  } else if (!version) {
    f.note =
        captured_lacks(root, "/proc/sys/kernel/osrelease") ? kNotCaptured : "kernel release not readable";
  } else if (driver.empty()) {
    f.note = captured_lacks(root, "/proc/driver/nvidia/version")
                 ? kNotCaptured
                 : "no NVIDIA driver version (/proc/driver/nvidia)";
  } else if (driver.find("Open Kernel Module") != std::string::npos) {
    f.value = "possible";
    f.note = fmt::format("kernel {}, NVIDIA open kernel module; the NIC's driver must support dma-buf too",
                         release);
  } else {
    f.value = "not possible";
    f.note = "NVIDIA's proprietary kernel module exports no dma-buf (the open one does)";
  }
  return f;
}

}  // namespace fb
