#pragma once
// Facts that differ between the vendors, as named functions (the portability header,
// gpu/gpu_api.hpp, maps only the runtime's names). Every function for both vendors is compiled
// in both builds, so the unit tests check the AMD answers on an NVIDIA build and the other way
// round. The build's vendor is a function compiled in gpu/ (FABRICBENCH_GPU_HIP is defined there
// alone), so that the layers above compile the same in the CUDA and the HIP build.
#include <string>
#include <string_view>

namespace fb::gpu {

enum class Vendor { nvidia, amd };

// The vendor this build's GPU layer was compiled for.
Vendor build_vendor();

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

// Whether the vendor's collective library reduces a type on this GPU. `nvidia_floor` is the
// type's NVIDIA compute-capability floor (x10; 0: every GPU), and only the fp8 types have one.
// NVIDIA: compute_capability >= floor. AMD: compute capabilities mean nothing there (gfx90a
// reads 9.0); fp8 arithmetic exists from MI300 (gfx94x) on, not on MI200 (gfx90a) or MI100
// (gfx908) (ROCm's "Data types and precision support" table).
bool reduces_type_on(int nvidia_floor, int compute_capability, std::string_view arch,
                     Vendor v = build_vendor());

// The floor in the vendor's words for messages: "compute capability 9.0", "gfx942 (MI300)".
std::string type_floor_name(int nvidia_floor, Vendor v = build_vendor());

// What carries the runtime's peer and host copies (p2p's "copy engine" tests): a DMA engine
// (NVIDIA's copy engines, AMD's SDMA engines), or, on AMD with HSA_ENABLE_SDMA=0, blit kernels
// on the compute units, which then compete with the SM-copy tests for the same units.
enum class CopyCarrier { dma_engine, blit_kernel };
// `hsa_enable_sdma`: that variable's value, nullptr when unset.
CopyCarrier copy_carrier(const char* hsa_enable_sdma, Vendor v = build_vendor());
// What p2p notes beside a copy-engine figure: "" for a DMA engine.
std::string_view copy_carrier_note(CopyCarrier c);

}  // namespace fb::gpu
