#pragma once
// The one path by which a CUDA (or, in the HIP build, HIP) call's result becomes an fb::Error,
// for gpu/ (and comm/, whose NCCL calls take the runtime's streams). Names are CUDA's; the
// portability header (gpu_api.hpp) maps them to HIP's. Every call goes through FB_CUDA (or
// FB_CUDA_ALLOC / FB_CUDA_LAUNCH), which records file:line and the call, and maps the CUDA
// error to the exit code it means (exit_code_for). Left unchecked on purpose: releases in
// destructors (which must not throw), and the calls whose failure is an answer (device_count's
// friendly no-GPU messages, p2p_performance_rank's "unknown", peer access already enabled).
#include <cstddef>
#include <optional>
#include <string>

#include "core/error.hpp"
#include "gpu/gpu_api.hpp"
#include "gpu/runtime.hpp"

namespace fb::gpu {

// environment (3) when the machine lacks what was asked (memory, a usable device or driver,
// a kernel image for this GPU); run_failed (4) for every other failure.
ExitCode exit_code_for(cudaError_t err);

// Throws Error(exit_code_for(err)) naming the CUDA error, where = "file:line: expr"; no-op on
// success.
void check_cuda(cudaError_t err, const char* expr, const char* file, int line);

enum class Memory { device, pinned_host };

// As check_cuda, for an allocation of `bytes`: the message says how much was asked and, for
// device memory, how much the current GPU has free, and suggests a smaller size.
void check_allocation(cudaError_t err, std::size_t bytes, Memory memory, const char* expr, const char* file,
                      int line);

// The message of a failed allocation; `free` is the device's free memory when it could be read.
std::string allocation_failure_message(cudaError_t err, std::size_t bytes, Memory memory, int device,
                                       const std::optional<MemInfo>& free);

inline cudaStream_t as_stream(void* handle) { return static_cast<cudaStream_t>(handle); }
inline cudaStream_t as_stream(const Stream& s) { return as_stream(s.handle()); }

}  // namespace fb::gpu

#define FB_CUDA(expr) ::fb::gpu::check_cuda((expr), #expr, __FILE__, __LINE__)
#define FB_CUDA_ALLOC(expr, bytes, memory) \
  ::fb::gpu::check_allocation((expr), (bytes), (memory), #expr, __FILE__, __LINE__)
// After a kernel launch: a bad launch configuration or a missing kernel image shows up here.
#define FB_CUDA_LAUNCH(kernel) \
  ::fb::gpu::check_cuda(cudaGetLastError(), "launch of the " kernel, __FILE__, __LINE__)
