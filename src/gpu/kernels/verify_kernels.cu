// Fill and verify kernels for every element type.
#include <cmath>
#include <cstdint>

#include "gpu/cuda_check.hpp"
#include "gpu/gpu_api.hpp"
#include "gpu/kernels/element_types.hpp"
#include "gpu/vendor.hpp"
#include "gpu/verify.hpp"

namespace fb::gpu {
namespace {

using kernels::kNarrowFloat;

template <typename T>
__device__ T from_double(double v) {
  if constexpr (kNarrowFloat<T>)
    return kernels::from_float<T>(static_cast<float>(v));
  else
    return static_cast<T>(v);
}

template <typename T>
__device__ double to_double(T v) {
  if constexpr (kNarrowFloat<T>)
    return kernels::to_float(v);
  else
    return static_cast<double>(v);
}

template <typename T>
__global__ void fill_kernel(T* out, std::size_t count, verify::ValueRule rule, int rank) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride)
    out[i] = from_double<T>(verify::input_value(rule, rank, i));
}

template <typename T>
__global__ void verify_kernel(const T* out, std::size_t count, VerifyParams p, double epsilon,
                              unsigned long long* wrong) {
  unsigned long long mine = 0;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t o = blockIdx.x * blockDim.x + threadIdx.x; o < count; o += stride) {
    const double expected = verify::expected_output(p.rule, p.layout, p.rank, p.root, p.block, o);
    const double got = to_double(out[o]);
    const double tol = verify::tolerance(p.rule, epsilon, expected);
    // A NaN fails this comparison and counts as wrong.
    if (!(fabs(got - expected) <= tol)) ++mine;
  }
  if (mine) atomicAdd(wrong, mine);
}

constexpr int kThreads = 256;
int blocks_for(std::size_t count) {
  const std::size_t b = (count + kThreads - 1) / kThreads;
  return static_cast<int>(b < 4096 ? (b > 0 ? b : 1) : 4096);
}

double epsilon_of(DType t) {
  switch (t) {
    case DType::float16:
      return std::ldexp(1.0, -10);
    case DType::bfloat16:
      return std::ldexp(1.0, -7);
    case DType::float32:
      return std::ldexp(1.0, -23);
    case DType::float64:
      return std::ldexp(1.0, -52);
    case DType::fp8_e4m3:
      return std::ldexp(1.0, -3);
    case DType::fp8_e5m2:
      return std::ldexp(1.0, -2);
    default:
      return 0.0;
  }
}

// Whether the current GPU's fp8 types are the fnuz ones (MI300); only asked on AMD, for fp8.
bool fnuz_fp8(DType t) {
  if constexpr (kHipBuild) {
    if (t != DType::fp8_e4m3 && t != DType::fp8_e5m2) return false;
    int device = 0;
    FB_CUDA(cudaGetDevice(&device));
    return fp8_is_fnuz(device_props(device).arch);
  }
  return false;
}

// The fp8 half of dispatch(): MI300's fnuz formats on AMD when `fnuz`, else the OCP ones.
template <typename F>
void dispatch_fp8(DType t, bool fnuz, F&& f) {
  if constexpr (kHipBuild) {
    if (fnuz && t == DType::fp8_e4m3) return f(static_cast<kernels::Fp8E4M3Fnuz*>(nullptr));
    if (fnuz) return f(static_cast<kernels::Fp8E5M2Fnuz*>(nullptr));
  }
  if (t == DType::fp8_e4m3) return f(static_cast<kernels::Fp8E4M3*>(nullptr));
  return f(static_cast<kernels::Fp8E5M2*>(nullptr));
}

// Calls f with a null pointer of the element type of `t` (fnuz: MI300's fp8 formats).
template <typename F>
void dispatch(DType t, bool fnuz, F&& f) {
  switch (t) {
    case DType::int8:
      return f(static_cast<int8_t*>(nullptr));
    case DType::uint8:
      return f(static_cast<uint8_t*>(nullptr));
    case DType::int32:
      return f(static_cast<int32_t*>(nullptr));
    case DType::uint32:
      return f(static_cast<uint32_t*>(nullptr));
    case DType::int64:
      return f(static_cast<int64_t*>(nullptr));
    case DType::uint64:
      return f(static_cast<uint64_t*>(nullptr));
    case DType::float16:
      return f(static_cast<kernels::Half*>(nullptr));
    case DType::bfloat16:
      return f(static_cast<kernels::BFloat16*>(nullptr));
    case DType::float32:
      return f(static_cast<float*>(nullptr));
    case DType::float64:
      return f(static_cast<double*>(nullptr));
    case DType::fp8_e4m3:
    case DType::fp8_e5m2:
      return dispatch_fp8(t, fnuz, f);
  }
}

}  // namespace

void fill_inputs(void* buffer, std::size_t count, DType t, const verify::ValueRule& rule, int rank,
                 const Stream& s) {
  if (count == 0) return;
  const cudaStream_t stream = as_stream(s);
  dispatch(t, fnuz_fp8(t), [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    fill_kernel<T><<<blocks_for(count), kThreads, 0, stream>>>(static_cast<T*>(buffer), count, rule, rank);
  });
  FB_CUDA_LAUNCH("fill kernel");
}

Verifier::Verifier() : counter_(sizeof(unsigned long long)) {}

std::uint64_t Verifier::count_wrong(const void* out, std::size_t count, DType t, const VerifyParams& p,
                                    const Stream& s) {
  if (count == 0) return 0;
  const cudaStream_t stream = as_stream(s);
  memset_async(counter_.data(), 0, sizeof(unsigned long long), s);
  auto* counter = static_cast<unsigned long long*>(counter_.data());
  dispatch(t, fnuz_fp8(t), [&](auto* tag) {
    using T = std::remove_pointer_t<decltype(tag)>;
    verify_kernel<T><<<blocks_for(count), kThreads, 0, stream>>>(static_cast<const T*>(out), count, p,
                                                                 epsilon_of(t), counter);
  });
  FB_CUDA_LAUNCH("verify kernel");
  unsigned long long wrong = 0;
  FB_CUDA(cudaMemcpyAsync(&wrong, counter, sizeof wrong, cudaMemcpyDeviceToHost, stream));
  s.synchronize();
  return wrong;
}

}  // namespace fb::gpu
