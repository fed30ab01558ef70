#include "gpu/cuda_check.hpp"

#include <fmt/format.h>

#include "core/units.hpp"
#include "gpu/vendor.hpp"

namespace fb::gpu {
namespace {

std::string describe(cudaError_t err) {
  return fmt::format("{} error {} ({}): {}", runtime_name(), static_cast<int>(err), cudaGetErrorName(err),
                     cudaGetErrorString(err));
}

// The current device's free memory, or nothing when it cannot be read (no device, or the
// context is broken).
std::optional<MemInfo> free_memory() {
  std::size_t free = 0;
  std::size_t total = 0;
  if (cudaMemGetInfo(&free, &total) != cudaSuccess) {
    (void)cudaGetLastError();
    return std::nullopt;
  }
  return MemInfo{free, total};
}

}  // namespace

ExitCode exit_code_for(cudaError_t err) {
  switch (err) {
    case cudaSuccess:
      return ExitCode::ok;
    case cudaErrorMemoryAllocation:
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorDevicesUnavailable:
    case cudaErrorNoKernelImageForDevice:
      return ExitCode::environment;
    default:
      return ExitCode::run_failed;
  }
}

void check_cuda(cudaError_t err, const char* expr, const char* file, int line) {
  if (err == cudaSuccess) return;
  raise(exit_code_for(err), describe(err), file, line, expr);
}

std::string allocation_failure_message(cudaError_t err, std::size_t bytes, Memory memory, int device,
                                       const std::optional<MemInfo>& free) {
  if (memory == Memory::pinned_host)
    return fmt::format("could not pin {} of host memory ({}); use a smaller --size", format_bytes(bytes),
                       cudaGetErrorName(err));
  const std::string available =
      free ? fmt::format("{} of its {} is free", format_bytes(free->free), format_bytes(free->total))
           : "its free memory could not be read";
  return fmt::format(
      "could not allocate {} on GPU {} ({}): {}; use a smaller -e/--maxbytes (run) or --size "
      "(p2p), or free the GPU",
      format_bytes(bytes), device, cudaGetErrorName(err), available);
}

void check_allocation(cudaError_t err, std::size_t bytes, Memory memory, const char* expr, const char* file,
                      int line) {
  if (err == cudaSuccess) return;
  if (err != cudaErrorMemoryAllocation) check_cuda(err, expr, file, line);
  (void)cudaGetLastError();  // an allocation failure is not sticky: leave the runtime clean
  int device = -1;
  if (cudaGetDevice(&device) != cudaSuccess) (void)cudaGetLastError();
  const auto free = memory == Memory::device ? free_memory() : std::nullopt;
  raise(ExitCode::environment, allocation_failure_message(err, bytes, memory, device, free), file, line,
        expr);
}

}  // namespace fb::gpu
