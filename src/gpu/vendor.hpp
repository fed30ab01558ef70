#pragma once
// Facts that differ between the vendors, as named functions (the portability header,
// gpu/gpu_api.hpp, maps only the runtime's names). Every function for both vendors is compiled
// in both builds, so the unit tests check the AMD answers on an NVIDIA build and the other way
// round; the `current_*` forms pick the build's vendor (FABRICBENCH_GPU_HIP).
#include <string>
#include <string_view>

namespace fb::gpu {

enum class Vendor { nvidia, amd };

constexpr Vendor build_vendor() {
#if defined(FABRICBENCH_GPU_HIP)
  return Vendor::amd;
#else
  return Vendor::nvidia;
#endif
}

// "CUDA" or "HIP": the runtime named in messages.
constexpr std::string_view runtime_name(Vendor v = build_vendor()) {
  return v == Vendor::amd ? "HIP" : "CUDA";
}

// The collective library loaded when --nccl-lib is not given, and its name in messages.
constexpr std::string_view default_collective_library(Vendor v = build_vendor()) {
  return v == Vendor::amd ? "librccl.so.1" : "libnccl.so.2";
}
constexpr std::string_view collective_library_name(Vendor v = build_vendor()) {
  return v == Vendor::amd ? "RCCL" : "NCCL";
}

// A runtime or driver version code as "major.minor": CUDA's 1000*major + 10*minor (12080 is
// "12.8"); HIP's 10000000*major + 100000*minor + patch (50221153 is "5.2").
std::string format_version(int code, Vendor v = build_vendor());

// The architecture's name as the vendor's compilers spell it: "sm_90" from compute capability
// 9.0; on AMD the runtime's gcnArchName up to its first feature flag ("gfx90a" from
// "gfx90a:sramecc+:xnack-").
std::string arch_name(int major, int minor, std::string_view gcn_arch_name, Vendor v = build_vendor());

// MI300 (gfx94x) computes fp8 in the "fnuz" formats (bias 8 for e4m3, 16 for e5m2, one NaN and
// no infinities), which RCCL uses for its fp8 types there; NVIDIA and later AMD GPUs use OCP's.
bool fp8_is_fnuz(std::string_view arch);

}  // namespace fb::gpu
