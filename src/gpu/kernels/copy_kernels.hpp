#pragma once
// Launchers of the p2p kernels (copy_kernels.cu); plain functions so that host code stays in .cpp.
#include <cstddef>
#include <cstdint>

#include "gpu/gpu_api.hpp"

namespace fb::gpu::kernels {

// `bytes` copied `repeats` times in one launch of `blocks` blocks of 512 threads (a ragged tail once).
void sm_copy(void* dst, const void* src, std::size_t bytes, int repeats, int blocks, cudaStream_t s);
void spin(volatile int* flag, long long timeout_cycles, cudaStream_t s);
void fill_pattern(std::uint32_t* buf, std::size_t words, std::uint32_t seed, int blocks, cudaStream_t s);
void check_pattern(const std::uint32_t* buf, std::size_t words, std::uint32_t seed, unsigned long long* bad,
                   int blocks, cudaStream_t s);
void chase(const std::uint64_t* start, int hops, std::uint64_t* sink, cudaStream_t s);

}  // namespace fb::gpu::kernels
