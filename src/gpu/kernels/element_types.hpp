#pragma once
// The element types of the fill/verify kernels and their float conversions, per vendor: CUDA's
// cuda_fp16/cuda_bf16/cuda_fp8 types, HIP's __half and hip_bfloat16 (ROCm 5 and 6 both ship it)
// and fp8 in software (fp8_codec.hpp), in OCP or MI300's fnuz formats (gpu/vendor.hpp).
#include <type_traits>

#include "gpu/gpu_api.hpp"
#include "gpu/kernels/fp8_codec.hpp"

#if defined(FABRICBENCH_GPU_HIP)
#include <hip/hip_bfloat16.h>
#include <hip/hip_fp16.h>
#else
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#endif

namespace fb::gpu::kernels {

using Half = __half;
#if defined(FABRICBENCH_GPU_HIP)
using BFloat16 = hip_bfloat16;
using Fp8E4M3 = fp8::Value<fp8::e4m3>;
using Fp8E5M2 = fp8::Value<fp8::e5m2>;
#else
using BFloat16 = __nv_bfloat16;
using Fp8E4M3 = __nv_fp8_e4m3;
using Fp8E5M2 = __nv_fp8_e5m2;
#endif
using Fp8E4M3Fnuz = fp8::Value<fp8::e4m3_fnuz>;
using Fp8E5M2Fnuz = fp8::Value<fp8::e5m2_fnuz>;

// Types that are not C++ arithmetic types: converted through float.
template <typename T>
inline constexpr bool kNarrowFloat = !std::is_arithmetic_v<T>;

template <typename T>
__device__ T from_float(float v) {
  if constexpr (std::is_same_v<T, Half>) return __float2half(v);
#if !defined(FABRICBENCH_GPU_HIP)
  else if constexpr (std::is_same_v<T, BFloat16>)
    return __float2bfloat16(v);
#endif
  else
    return T(v);
}

template <typename T>
__device__ float to_float(T v) {
  if constexpr (std::is_same_v<T, Half>) return __half2float(v);
#if !defined(FABRICBENCH_GPU_HIP)
  else if constexpr (std::is_same_v<T, BFloat16>)
    return __bfloat162float(v);
#endif
  else
    return static_cast<float>(v);
}

}  // namespace fb::gpu::kernels
