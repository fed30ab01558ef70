// The p2p kernels: SM copy, start-gate spin, pattern fill/check, pointer chase.
#include "gpu/kernels/copy_kernels.hpp"
#include "gpu/kernels/pattern.hpp"

namespace fb::gpu::kernels {
namespace {

// Four independent 16-byte loads in flight per thread per step keep the links busy. `repeats` passes
// over the same words in one launch: a batch of copies then has one kernel boundary, not one per copy
// (a boundary waits for the copy's last writes, which over a host link is time the link sits idle).
__global__ void sm_copy_kernel(uint4* __restrict__ dst, const uint4* __restrict__ src, std::size_t n,
                               int repeats) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t first = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  for (int r = 0; r < repeats; ++r) {
    std::size_t i = first;
    for (; i + 3 * stride < n; i += 4 * stride) {
      const uint4 a = src[i];
      const uint4 b = src[i + stride];
      const uint4 c = src[i + 2 * stride];
      const uint4 d = src[i + 3 * stride];
      dst[i] = a;
      dst[i + stride] = b;
      dst[i + 2 * stride] = c;
      dst[i + 3 * stride] = d;
    }
    for (; i < n; i += stride) dst[i] = src[i];
  }
}

__global__ void tail_copy_kernel(unsigned char* dst, const unsigned char* src, std::size_t n) {
  for (std::size_t i = threadIdx.x; i < n; i += blockDim.x) dst[i] = src[i];
}

__global__ void spin_kernel(volatile int* flag, long long timeout_cycles) {
  const long long end = clock64() + timeout_cycles;
  while (*flag == 0 && clock64() < end) {
  }
}

__global__ void fill_kernel(std::uint32_t* buf, std::size_t n, std::uint32_t seed) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n; i += stride)
    buf[i] = pattern(i, seed);
}

__global__ void check_kernel(const std::uint32_t* buf, std::size_t n, std::uint32_t seed,
                             unsigned long long* bad) {
  unsigned long long mine = 0;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n; i += stride)
    mine += buf[i] != pattern(i, seed);
  if (mine) atomicAdd(bad, mine);
}

// One thread follows the chain; volatile loads bypass L1 so every hop goes to memory.
__global__ void chase_kernel(const std::uint64_t* start, int hops, std::uint64_t* sink) {
  const volatile std::uint64_t* p = start;
  for (int h = 0; h < hops; ++h) p = reinterpret_cast<const volatile std::uint64_t*>(*p);
  *sink = reinterpret_cast<std::uint64_t>(p);
}

}  // namespace

void sm_copy(void* dst, const void* src, std::size_t bytes, int repeats, int blocks, cudaStream_t s) {
  const std::size_t n = bytes / sizeof(uint4);
  sm_copy_kernel<<<blocks, 512, 0, s>>>(static_cast<uint4*>(dst), static_cast<const uint4*>(src), n, repeats);
  const std::size_t tail = bytes - n * sizeof(uint4);
  if (tail)
    tail_copy_kernel<<<1, 32, 0, s>>>(static_cast<unsigned char*>(dst) + n * sizeof(uint4),
                                      static_cast<const unsigned char*>(src) + n * sizeof(uint4), tail);
}

void spin(volatile int* flag, long long timeout_cycles, cudaStream_t s) {
  spin_kernel<<<1, 1, 0, s>>>(flag, timeout_cycles);
}

void fill_pattern(std::uint32_t* buf, std::size_t words, std::uint32_t seed, int blocks, cudaStream_t s) {
  fill_kernel<<<blocks, 256, 0, s>>>(buf, words, seed);
}

void check_pattern(const std::uint32_t* buf, std::size_t words, std::uint32_t seed, unsigned long long* bad,
                   int blocks, cudaStream_t s) {
  check_kernel<<<blocks, 256, 0, s>>>(buf, words, seed, bad);
}

void chase(const std::uint64_t* start, int hops, std::uint64_t* sink, cudaStream_t s) {
  chase_kernel<<<1, 1, 0, s>>>(start, hops, sink);
}

}  // namespace fb::gpu::kernels
