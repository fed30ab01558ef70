// The host rules that read kernel settings, the kernel log and NVML (analyse/host/host_checks.hpp).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <set>

#include "analyse/host/host_checks.hpp"
#include "analyse/scope/host_scope.hpp"
#include "analyse/scope/vendor_tools.hpp"
#include "core/text.hpp"

namespace fb {
namespace {

// NVIDIA's recommendation for containers (NCCL's troubleshooting guide: docker --shm-size=1g);
// docker's default is 64 MiB.
constexpr std::uint64_t kShmRecommended = 1ULL << 30;
constexpr std::size_t kXidLinesShown = 5;

bool any_amd_gpu(const Result& r) { return r.topology && topology_vendor(*r.topology) == gpu::Vendor::amd; }

std::vector<Finding> check_numa_balancing(const Result& r, const HostScope& s) {
  const auto& f = s.facts->numa_balancing;
  if (!f.known() || f.value == "0") return {};
  return {
      {"HOST_NUMA_BALANCING", any_amd_gpu(r) ? Severity::warning : Severity::info,
       fmt::format("automatic NUMA balancing is on: kernel.numa_balancing = {}", cite(f)),
       "kernel.numa_balancing = 0 on GPU hosts (AMD's MI300X tuning guide requires it; NVIDIA hosts gain "
       "steadier host<->device copies)",
       "`sudo sysctl -w kernel.numa_balancing=0`, and put `kernel.numa_balancing = 0` in /etc/sysctl.d/ to "
       "keep it: the kernel otherwise migrates the pages of pinned-memory neighbours and adds jitter"}};
}

bool failed_for_shm(const Result& r) {
  auto mentions = [](const std::string& text) {
    const auto t = lower(text);
    return t.find("/dev/shm") != std::string::npos || t.find("shared memory") != std::string::npos;
  };
  return mentions(r.failure) ||
         std::any_of(r.runs.begin(), r.runs.end(), [&](const Run& run) { return mentions(run.failure); });
}

std::vector<Finding> check_shm(const Result& r, const HostScope& s) {
  const auto& f = s.facts->shm_bytes;
  const auto bytes = number_or_zero(f);
  if (!f.known() || bytes >= kShmRecommended) return {};
  const Severity severity = failed_for_shm(r)       ? Severity::error
                            : s.bus_ids.size() >= 2 ? Severity::warning
                                                    : Severity::info;
  return {
      {"HOST_SHM_SMALL", severity,
       fmt::format("/dev/shm holds only {} MiB ({}){}", bytes >> 20, f.source,
                   severity == Severity::error ? "; the run failed on shared memory" : ""),
       "at least 1 GiB of /dev/shm (NCCL keeps its SHM transport buffers and proxy state there)",
       "containers: `docker run --shm-size=1g` (or --ipc=host); Kubernetes: an emptyDir with medium: Memory "
       "mounted at /dev/shm"}};
}

// "NVRM: Xid (PCI:0000:18:00): 79, pid=..." -> bus prefix "0000:18:00" and code 79.
bool parse_xid(const std::string& line, std::string& bus, int& code) {
  const auto at = line.find("Xid (PCI:");
  if (at == std::string::npos) return false;
  const auto close = line.find("): ", at);
  if (close == std::string::npos) return false;
  bus = lower(line.substr(at + 9, close - at - 9));
  try {
    code = std::stoi(line.substr(close + 3));
  } catch (const std::exception&) {
    return false;
  }
  return true;
}

// The Xid codes NVIDIA's Xid catalogue marks as hardware or driver faults that need a reset or
// service: DBE (48), row remapping (63, 64), NVLink (74), off the bus (79), ECC (92, 94, 95),
// GSP (119, 120). Others (13, 31, 43, ...) are usually the program's own faults.
bool xid_is_fatal(int code) {
  constexpr std::array<int, 10> kFatal{48, 63, 64, 74, 79, 92, 94, 95, 119, 120};
  return std::find(kFatal.begin(), kFatal.end(), code) != kFatal.end();
}

std::vector<Finding> check_xid(const Result& /*r*/, const HostScope& s) {
  std::vector<std::string> shown;
  std::set<int> codes;
  bool fatal = false;
  for (const auto& line : s.facts->xid_lines) {
    std::string bus;
    int code = 0;
    if (!parse_xid(line, bus, code)) continue;
    const bool ours = std::any_of(s.bus_ids.begin(), s.bus_ids.end(),
                                  [&](const std::string& id) { return id.rfind(bus, 0) == 0; });
    if (!ours) continue;
    codes.insert(code);
    fatal = fatal || xid_is_fatal(code);
    const auto text = line.find("NVRM:");
    if (shown.size() < kXidLinesShown) shown.push_back(line.substr(text == std::string::npos ? 0 : text));
  }
  if (codes.empty()) return {};
  return {
      {"HOST_XID", fatal ? Severity::error : Severity::warning,
       fmt::format("the kernel log ({}) holds Xid {} for the run's GPUs: {}", s.facts->xid_count.source,
                   fmt::join(codes, ", "), fmt::join(shown, " | ")),
       "no Xid errors since boot",
       fatal
           ? "hardware or driver fault (NVIDIA's Xid catalogue): drain the node, reset the GPU "
             "(`nvidia-smi -r`) or reboot, and replace the GPU if it returns"
           : "look the code up in NVIDIA's Xid catalogue: these codes are most often a program's own fault"}};
}

}  // namespace

std::vector<Finding> check_host_kernel(const Result& r) {
  const auto s = host_scope(r);
  if (s.facts == nullptr) return {};
  std::vector<Finding> out;
  for (auto& f : {check_numa_balancing(r, s), check_shm(r, s), check_xid(r, s)})
    out.insert(out.end(), f.begin(), f.end());
  return out;
}

}  // namespace fb
