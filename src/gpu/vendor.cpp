#include "gpu/vendor.hpp"

#include <fmt/format.h>

#include "gpu/gpu_api.hpp"

namespace fb::gpu {

Vendor build_vendor() { return kHipBuild ? Vendor::amd : Vendor::nvidia; }

std::string format_version(int code, Vendor v) {
  if (v == Vendor::amd) return fmt::format("{}.{}", code / 10000000, code % 10000000 / 100000);
  return fmt::format("{}.{}", code / 1000, code % 1000 / 10);
}

std::string arch_name(int major, int minor, std::string_view gcn_arch_name, Vendor v) {
  if (v == Vendor::nvidia) return fmt::format("sm_{}{}", major, minor);
  return std::string(gcn_arch_name.substr(0, gcn_arch_name.find(':')));
}

bool fp8_is_fnuz(std::string_view arch) { return arch.starts_with("gfx94"); }

namespace {
// gfx94x (MI300) and gfx95x (MI350) carry fp8, gfx90a (MI200) and gfx908 (MI100) do not;
// gfx10/gfx11 (Radeon) have none, gfx12 (Radeon RX 9000) has OCP fp8.
bool amd_arch_has_fp8(std::string_view arch) {
  if (arch.starts_with("gfx12")) return true;
  return arch.size() >= 6 && arch.starts_with("gfx9") && arch[4] >= '4' && arch[4] <= '9';
}
}  // namespace

bool reduces_type_on(int nvidia_floor, int compute_capability, std::string_view arch, Vendor v) {
  if (nvidia_floor == 0) return true;
  if (v == Vendor::nvidia) return compute_capability >= nvidia_floor;
  return amd_arch_has_fp8(arch);
}

std::string type_floor_name(int nvidia_floor, Vendor v) {
  if (v == Vendor::amd) return "gfx942 (MI300) or newer";
  return fmt::format("compute capability {}.{} or newer", nvidia_floor / 10, nvidia_floor % 10);
}

CopyCarrier copy_carrier(const char* hsa_enable_sdma, Vendor v) {
  if (v == Vendor::amd && hsa_enable_sdma != nullptr && std::string_view(hsa_enable_sdma) == "0")
    return CopyCarrier::blit_kernel;
  return CopyCarrier::dma_engine;
}

std::string_view copy_carrier_note(CopyCarrier c) {
  return c == CopyCarrier::blit_kernel
             ? "HSA_ENABLE_SDMA=0: copied by blit kernels on the compute units, not by an SDMA engine"
             : "";
}

}  // namespace fb::gpu
