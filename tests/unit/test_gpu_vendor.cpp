// Vendor facts (gpu/vendor.hpp) for both vendors, whichever backend this build is, and the
// software fp8 codec of the HIP build's kernels (gpu/kernels/fp8_codec.hpp): bit patterns worked
// out by hand from the format definitions, and, in the CUDA build, every code and a sweep of
// floats checked against cuda_fp8.h's own conversions (the OCP formats).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "gpu/kernels/fp8_codec.hpp"
#include "gpu/vendor.hpp"

#if !defined(FABRICBENCH_GPU_HIP)
#include <cuda_fp8.h>
#endif

namespace {

using fb::gpu::Vendor;
namespace fp8 = fb::gpu::fp8;

TEST(GpuVendor, NamesAndDefaultLibraryPerVendor) {
  EXPECT_EQ(fb::gpu::runtime_name(Vendor::nvidia), "CUDA");
  EXPECT_EQ(fb::gpu::runtime_name(Vendor::amd), "HIP");
  EXPECT_EQ(fb::gpu::default_collective_library(Vendor::nvidia), "libnccl.so.2");
  EXPECT_EQ(fb::gpu::default_collective_library(Vendor::amd), "librccl.so.1");
  EXPECT_EQ(fb::gpu::collective_library_name(Vendor::amd), "RCCL");
#if defined(FABRICBENCH_GPU_HIP)
  EXPECT_EQ(fb::gpu::build_vendor(), Vendor::amd);
#else
  EXPECT_EQ(fb::gpu::build_vendor(), Vendor::nvidia);
#endif
}

TEST(GpuVendor, VersionCodes) {
  EXPECT_EQ(fb::gpu::format_version(12080, Vendor::nvidia), "12.8");
  EXPECT_EQ(fb::gpu::format_version(13000, Vendor::nvidia), "13.0");
  EXPECT_EQ(fb::gpu::format_version(50221153, Vendor::amd), "5.2");   // Debian 12's ROCm
  EXPECT_EQ(fb::gpu::format_version(60342134, Vendor::amd), "6.3");   // HIP 6.3.42134
  EXPECT_EQ(fb::gpu::format_version(61041133, Vendor::amd), "6.10");  // minor is two digits
}

TEST(GpuVendor, ArchitectureNames) {
  EXPECT_EQ(fb::gpu::arch_name(9, 0, "", Vendor::nvidia), "sm_90");
  EXPECT_EQ(fb::gpu::arch_name(8, 9, "", Vendor::nvidia), "sm_89");
  EXPECT_EQ(fb::gpu::arch_name(9, 4, "gfx942:sramecc+:xnack-", Vendor::amd), "gfx942");
  EXPECT_EQ(fb::gpu::arch_name(9, 0, "gfx90a", Vendor::amd), "gfx90a");
}

TEST(GpuVendor, Mi300UsesTheFnuzFp8Formats) {
  EXPECT_TRUE(fb::gpu::fp8_is_fnuz("gfx942"));  // MI300X, MI325X
  EXPECT_TRUE(fb::gpu::fp8_is_fnuz("gfx940"));
  EXPECT_FALSE(fb::gpu::fp8_is_fnuz("gfx950"));  // MI355X: OCP
  EXPECT_FALSE(fb::gpu::fp8_is_fnuz("gfx90a"));
  EXPECT_FALSE(fb::gpu::fp8_is_fnuz("sm_90"));
}

TEST(GpuVendor, Fp8ReductionsFollowTheArchitectureNotTheComputeCapability) {
  // NVIDIA: the compute-capability floor (fp8 from 9.0).
  EXPECT_TRUE(fb::gpu::reduces_type_on(90, 90, "sm_90", Vendor::nvidia));
  EXPECT_FALSE(fb::gpu::reduces_type_on(90, 89, "sm_89", Vendor::nvidia));
  EXPECT_TRUE(fb::gpu::reduces_type_on(0, 70, "sm_70", Vendor::nvidia));  // no floor
  // AMD: MI250X (gfx90a) reads compute capability 9.0 but has no fp8; MI300 and MI350 do.
  EXPECT_FALSE(fb::gpu::reduces_type_on(90, 90, "gfx90a", Vendor::amd));
  EXPECT_FALSE(fb::gpu::reduces_type_on(90, 90, "gfx908", Vendor::amd));
  EXPECT_TRUE(fb::gpu::reduces_type_on(90, 94, "gfx942", Vendor::amd));
  EXPECT_TRUE(fb::gpu::reduces_type_on(90, 95, "gfx950", Vendor::amd));
  EXPECT_FALSE(fb::gpu::reduces_type_on(90, 110, "gfx1100", Vendor::amd));
  EXPECT_TRUE(fb::gpu::reduces_type_on(0, 90, "gfx90a", Vendor::amd));  // bf16 and the rest
  EXPECT_EQ(fb::gpu::type_floor_name(90, Vendor::nvidia), "compute capability 9.0 or newer");
  EXPECT_EQ(fb::gpu::type_floor_name(90, Vendor::amd), "gfx942 (MI300) or newer");
}

TEST(GpuVendor, CopyEngineIsSdmaUnlessHsaDisablesIt) {
  using fb::gpu::CopyCarrier;
  EXPECT_EQ(fb::gpu::copy_carrier(nullptr, Vendor::amd), CopyCarrier::dma_engine);
  EXPECT_EQ(fb::gpu::copy_carrier("1", Vendor::amd), CopyCarrier::dma_engine);
  EXPECT_EQ(fb::gpu::copy_carrier("0", Vendor::amd), CopyCarrier::blit_kernel);
  EXPECT_EQ(fb::gpu::copy_carrier("0", Vendor::nvidia), CopyCarrier::dma_engine);  // HSA_* is AMD's
  EXPECT_EQ(fb::gpu::copy_carrier_note(CopyCarrier::dma_engine), "");
  EXPECT_NE(fb::gpu::copy_carrier_note(CopyCarrier::blit_kernel).find("HSA_ENABLE_SDMA=0"),
            std::string::npos);
}

TEST(Fp8Codec, KnownBitPatterns) {
  // 1.0: biased exponent = bias, mantissa 0.
  EXPECT_EQ(fp8::encode(1.0F, fp8::e4m3), 0x38);       // 0.0111.000
  EXPECT_EQ(fp8::encode(1.0F, fp8::e4m3_fnuz), 0x40);  // 0.1000.000
  EXPECT_EQ(fp8::encode(1.0F, fp8::e5m2), 0x3C);       // 0.01111.00
  EXPECT_EQ(fp8::encode(1.0F, fp8::e5m2_fnuz), 0x40);  // 0.10000.00
  EXPECT_EQ(fp8::encode(-2.0F, fp8::e4m3), 0xC0);
  EXPECT_EQ(fp8::encode(3.0F, fp8::e4m3), 0x44);  // 1.5 * 2^1: 0.1000.100
  // Largest finite values, and saturation beyond them.
  EXPECT_EQ(fp8::decode(0x7E, fp8::e4m3), 448.0F);
  EXPECT_EQ(fp8::decode(0x7F, fp8::e4m3_fnuz), 240.0F);
  EXPECT_EQ(fp8::decode(0x7B, fp8::e5m2), 57344.0F);
  EXPECT_EQ(fp8::decode(0x7F, fp8::e5m2_fnuz), 57344.0F);
  EXPECT_EQ(fp8::encode(1000.0F, fp8::e4m3), 0x7E);
  EXPECT_EQ(fp8::encode(-1000.0F, fp8::e4m3_fnuz), 0xFF);
  EXPECT_EQ(fp8::encode(INFINITY, fp8::e5m2), 0x7B);
  // Smallest subnormals: 2^(1 - bias - mantissa bits).
  EXPECT_EQ(fp8::decode(0x01, fp8::e4m3), std::ldexp(1.0F, -9));
  EXPECT_EQ(fp8::decode(0x01, fp8::e4m3_fnuz), std::ldexp(1.0F, -10));
  EXPECT_EQ(fp8::encode(std::ldexp(1.0F, -9), fp8::e4m3), 0x01);
}

TEST(Fp8Codec, NanInfinityAndZero) {
  EXPECT_TRUE(std::isnan(fp8::decode(0x80, fp8::e4m3_fnuz)));  // fnuz: "negative zero" is NaN
  EXPECT_TRUE(std::isnan(fp8::decode(0x7F, fp8::e4m3)));
  EXPECT_TRUE(std::isinf(fp8::decode(0x7C, fp8::e5m2)));
  EXPECT_EQ(fp8::encode(NAN, fp8::e4m3_fnuz), 0x80);
  EXPECT_EQ(fp8::encode(NAN, fp8::e4m3), 0x7F);
  EXPECT_EQ(fp8::encode(-0.0F, fp8::e4m3_fnuz), 0x00);  // no negative zero
  EXPECT_EQ(fp8::encode(-0.0F, fp8::e4m3), 0x80);
  EXPECT_EQ(fp8::decode(0x80, fp8::e4m3), 0.0F);
}

TEST(Fp8Codec, RoundsToNearestEven) {
  // e4m3 steps by 0.125 in [1, 2): 1.0625 is halfway to 1.125 (odd), 1.1875 halfway to 1.25 (even).
  EXPECT_EQ(fp8::encode(1.0625F, fp8::e4m3), 0x38);
  EXPECT_EQ(fp8::encode(1.1875F, fp8::e4m3), 0x3A);
  EXPECT_EQ(fp8::encode(1.07F, fp8::e4m3), 0x39);
  // A carry out of the mantissa moves the exponent: 1.97 rounds to 2.0.
  EXPECT_EQ(fp8::encode(1.97F, fp8::e4m3), 0x40);
}

TEST(Fp8Codec, EveryCodeRoundTrips) {
  for (const auto* f : {&fp8::e4m3, &fp8::e5m2, &fp8::e4m3_fnuz, &fp8::e5m2_fnuz}) {
    for (int code = 0; code < 256; ++code) {
      const auto bits = static_cast<std::uint8_t>(code);
      const float v = fp8::decode(bits, *f);
      if (std::isnan(v) || std::isinf(v)) continue;
      EXPECT_EQ(fp8::encode(v, *f), bits) << "code " << code << " bias " << f->bias;
    }
  }
}

#if !defined(FABRICBENCH_GPU_HIP)
// The CUDA build's kernels use cuda_fp8.h: the codec must agree with it where both define a format.
TEST(Fp8Codec, AgreesWithCudaFp8) {
  for (int code = 0; code < 256; ++code) {
    const auto bits = static_cast<std::uint8_t>(code);
    __nv_fp8_e4m3 a;
    a.__x = bits;
    __nv_fp8_e5m2 b;
    b.__x = bits;
    const float ours_a = fp8::decode(bits, fp8::e4m3);
    const float ours_b = fp8::decode(bits, fp8::e5m2);
    if (std::isnan(ours_a))
      EXPECT_TRUE(std::isnan(static_cast<float>(a))) << code;
    else
      EXPECT_EQ(ours_a, static_cast<float>(a)) << code;
    if (std::isnan(ours_b))
      EXPECT_TRUE(std::isnan(static_cast<float>(b))) << code;
    else
      EXPECT_EQ(ours_b, static_cast<float>(b)) << code;
  }
  // Magnitudes from below the smallest subnormal to beyond the largest finite value, both signs,
  // and every halfway point between neighbouring codes (where rounding decides).
  std::vector<float> values;
  for (int i = -20 * 97; i <= 17 * 97; ++i) values.push_back(std::exp2(static_cast<float>(i) / 97.0F));
  for (int code = 0; code < 0x7B; ++code) {
    values.push_back((fp8::decode(static_cast<std::uint8_t>(code), fp8::e4m3) +
                      fp8::decode(static_cast<std::uint8_t>(code + 1), fp8::e4m3)) /
                     2);
    values.push_back((fp8::decode(static_cast<std::uint8_t>(code), fp8::e5m2) +
                      fp8::decode(static_cast<std::uint8_t>(code + 1), fp8::e5m2)) /
                     2);
  }
  for (const float m : values) {
    for (const float v : {m, -m}) {
      EXPECT_EQ(fp8::encode(v, fp8::e4m3), __nv_fp8_e4m3(v).__x) << v;
      EXPECT_EQ(fp8::encode(v, fp8::e5m2), __nv_fp8_e5m2(v).__x) << v;
    }
  }
}
#endif

}  // namespace
