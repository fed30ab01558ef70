#include "analyse/scope/vendor_tools.hpp"

#include <algorithm>

namespace fb {
namespace {

constexpr VendorTools kNvidia{
    .clocks = "nvidia-smi -q -d PERFORMANCE",
    .links = "nvidia-smi nvlink -s / -e for errors",
    .pcie = "nvidia-smi -q -d PCIE: current vs max gen/width",
    .ecc = "nvidia-smi -q -d ECC",
    .status = "nvidia-smi -q",
    .processes = "nvidia-smi, top",
    .lost_gpu = "`nvidia-smi -q` and the kernel log (dmesg: Xid 79 'fallen off the bus')",
};

// rocm-smi's options as ROCm 5.x-6.x spell them (amd-smi, ROCm 6's successor, has the same
// figures under `amd-smi metric`).
constexpr VendorTools kAmd{
    .clocks = "rocm-smi --showclocks --showpower --showperflevel",
    .links = "rocm-smi --showtopo for the xGMI links, --showxgmierr for errors",
    .pcie = "rocm-smi --showbus and `lspci -vv`: LnkSta vs LnkCap",
    .ecc = "rocm-smi --showrasinfo",
    .status = "rocm-smi -a",
    .processes = "rocm-smi --showpids, top",
    .lost_gpu = "`rocm-smi -a` and the kernel log (dmesg: amdgpu errors, GPU reset or hang)",
};

bool amd_name(std::string_view name) {
  return name.starts_with("AMD") || name.find("Instinct") != std::string_view::npos ||
         name.find("Radeon") != std::string_view::npos;
}

}  // namespace

const VendorTools& vendor_tools(gpu::Vendor v) { return v == gpu::Vendor::amd ? kAmd : kNvidia; }

gpu::Vendor topology_vendor(const Topology& t) {
  const bool amd =
      std::any_of(t.gpus.begin(), t.gpus.end(), [](const TopoGpu& g) { return g.vendor == "amd"; });
  return amd ? gpu::Vendor::amd : gpu::Vendor::nvidia;
}

gpu::Vendor result_vendor(const Result& r) {
  if (r.topology && !r.topology->gpus.empty()) return topology_vendor(*r.topology);
  if (r.host.comm.name == "RCCL") return gpu::Vendor::amd;
  const bool amd =
      std::any_of(r.gpus.begin(), r.gpus.end(), [](const GpuInfo& g) { return amd_name(g.name); });
  return amd ? gpu::Vendor::amd : gpu::Vendor::nvidia;
}

}  // namespace fb
