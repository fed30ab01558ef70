#pragma once
// fp8 in software, for the HIP build's kernels (ROCm 5 has no fp8 header, and MI300's RCCL uses
// the "fnuz" formats that NVIDIA's types do not know) and for host tests. Conversions saturate to
// the largest finite value, as the CUDA types' float constructors do (__NV_SATFINITE), and round
// to nearest even. The CUDA build's kernels use cuda_fp8.h; the unit tests check this codec
// against it for the OCP formats.
#include <cmath>
#include <cstdint>

#if defined(__CUDACC__) || defined(__HIP__)
#define FB_FP8_HD __host__ __device__
#else
#define FB_FP8_HD
#endif

namespace fb::gpu::fp8 {

struct Format {
  int exponent_bits;
  int mantissa_bits;
  int bias;
  bool fnuz;              // finite, no negative zero: 0x80 is the only NaN, no infinities
  std::uint8_t max_bits;  // the largest finite magnitude's bit pattern
};

// OCP 8-bit floating point (OFP8): E4M3 has no infinities and NaN at S.1111.111; E5M2 is IEEE-like.
inline constexpr Format e4m3{4, 3, 7, false, 0x7E};       // max 448
inline constexpr Format e5m2{5, 2, 15, false, 0x7B};      // max 57344
inline constexpr Format e4m3_fnuz{4, 3, 8, true, 0x7F};   // max 240
inline constexpr Format e5m2_fnuz{5, 2, 16, true, 0x7F};  // max 57344

FB_FP8_HD inline bool is_nan(std::uint8_t bits, const Format& f) {
  if (f.fnuz) return bits == 0x80;
  const int e = (bits >> f.mantissa_bits) & ((1 << f.exponent_bits) - 1);
  const int m = bits & ((1 << f.mantissa_bits) - 1);
  if (f.exponent_bits == 4) return e == 15 && m == 7;
  return e == 31 && m != 0;
}

FB_FP8_HD inline float decode(std::uint8_t bits, const Format& f) {
  if (is_nan(bits, f)) return NAN;
  const int e = (bits >> f.mantissa_bits) & ((1 << f.exponent_bits) - 1);
  const int m = bits & ((1 << f.mantissa_bits) - 1);
  const float sign = (bits & 0x80) ? -1.0F : 1.0F;
  if (!f.fnuz && f.exponent_bits == 5 && e == 31) return sign * INFINITY;
  if (e == 0) return sign * ldexpf(static_cast<float>(m), 1 - f.bias - f.mantissa_bits);
  return sign * ldexpf(static_cast<float>(m + (1 << f.mantissa_bits)), e - f.bias - f.mantissa_bits);
}

FB_FP8_HD inline std::uint8_t encode(float v, const Format& f) {
  const std::uint8_t nan = f.fnuz ? 0x80 : (f.exponent_bits == 4 ? 0x7F : 0x7E);
  if (std::isnan(v)) return nan;
  const std::uint8_t sign = std::signbit(v) ? 0x80 : 0x00;
  const float a = fabsf(v);
  int ex = 0;
  frexpf(a, &ex);  // a = fraction * 2^ex, fraction in [0.5, 1)
  const int biased = ex - 1 + f.bias;
  const int one = 1 << f.mantissa_bits;
  int bits = 0;
  if (a == 0.0F) {
    bits = 0;
  } else if (std::isinf(a) || biased > (1 << f.exponent_bits)) {
    bits = f.max_bits;
  } else if (biased >= 1) {
    // The significand scaled to [one, 2*one), rounded to nearest even; a carry moves the exponent.
    const int q = static_cast<int>(rintf(ldexpf(a, f.mantissa_bits - (ex - 1))));
    bits = biased * one + (q - one);
  } else {
    bits = static_cast<int>(rintf(ldexpf(a, f.bias - 1 + f.mantissa_bits)));  // subnormal (or zero)
  }
  if (bits > f.max_bits) bits = f.max_bits;
  if (bits == 0 && f.fnuz) return 0;  // no negative zero
  return static_cast<std::uint8_t>(sign | bits);
}

// An fp8 element of format F, with the conversions the fill/verify kernels use.
template <const Format& F>
struct Value {
  std::uint8_t bits;
  Value() = default;
  FB_FP8_HD explicit Value(float v) : bits(encode(v, F)) {}
  FB_FP8_HD explicit operator float() const { return decode(bits, F); }
};

static_assert(sizeof(Value<e4m3>) == 1, "an fp8 element is one byte in device memory");

}  // namespace fb::gpu::fp8
