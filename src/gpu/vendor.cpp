#include "gpu/vendor.hpp"

#include <fmt/format.h>

namespace fb::gpu {

std::string format_version(int code, Vendor v) {
  if (v == Vendor::amd) return fmt::format("{}.{}", code / 10000000, code % 10000000 / 100000);
  return fmt::format("{}.{}", code / 1000, code % 1000 / 10);
}

std::string arch_name(int major, int minor, std::string_view gcn_arch_name, Vendor v) {
  if (v == Vendor::nvidia) return fmt::format("sm_{}{}", major, minor);
  return std::string(gcn_arch_name.substr(0, gcn_arch_name.find(':')));
}

bool fp8_is_fnuz(std::string_view arch) { return arch.starts_with("gfx94"); }

}  // namespace fb::gpu
