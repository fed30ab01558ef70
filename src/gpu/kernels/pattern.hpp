#pragma once
// The verification pattern of p2p copies: 32-bit words, a hash of (index, seed), never 0.
#include <cstdint>

#if defined(__CUDACC__) || defined(__HIP__)
#define FB_PATTERN_HD __host__ __device__
#else
#define FB_PATTERN_HD
#endif

namespace fb::gpu {

FB_PATTERN_HD inline std::uint32_t pattern(std::uint64_t i, std::uint32_t seed) {
  std::uint64_t x = i * 0x9E3779B97F4A7C15ULL + seed * 0xBF58476D1CE4E5B9ULL;
  x ^= x >> 31;
  x *= 0x94D049BB133111EBULL;
  x ^= x >> 29;
  return static_cast<std::uint32_t>(x) | 1U;
}

}  // namespace fb::gpu
