// Host side of gpu/copy_ops.hpp (CUDA).
#include <fmt/format.h>
#include <sched.h>
#include <sys/mman.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <string>
#include <thread>
#include <vector>

#include "core/cpu_affinity.hpp"
#include "core/error.hpp"
#include "core/units.hpp"
#include "gpu/copy_ops.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/gpu_api.hpp"
#include "gpu/kernels/copy_kernels.hpp"
#include "gpu/kernels/pattern.hpp"

namespace fb::gpu {
namespace {

int current_device_attribute(cudaDeviceAttr attribute) {
  int dev = 0;
  int value = 0;
  FB_CUDA(cudaGetDevice(&dev));
  FB_CUDA(cudaDeviceGetAttribute(&value, attribute, dev));
  return value;
}

int sm_count() {
  const int sms = current_device_attribute(cudaDevAttrMultiProcessorCount);
  return sms > 0 ? sms : 1;
}

// TEMPORARY, for issue 43's measurement against nvbandwidth (both variables go once the figures
// choose): FABRICBENCH_EXPERIMENT_SM_COPY says how a batch of SM copies is launched (per-copy: one
// launch per copy, the landed method and the default until a GPU run has measured the others; looped:
// one launch repeating the copy, 4 blocks of 512 threads per SM; looped-narrow: one launch, one block of
// 512 threads per SM, nvbandwidth's grid). No GPU was lent in the session that wrote them (2026-12-04),
// so the default measures as before. And
// FABRICBENCH_EXPERIMENT_HOST_ALLOC how pinned host memory is made (register: first touched on the
// GPU's CPUs, then registered, the default; hostalloc: allocated by the driver from a thread on them).
std::string experiment(const char* variable, const char* fallback, std::initializer_list<const char*> known) {
  const char* value = std::getenv(variable);
  const std::string chosen = value != nullptr && *value != '\0' ? value : fallback;
  for (const char* k : known)
    if (chosen == k) return chosen;
  throw Error(ExitCode::usage, fmt::format("{}: unknown variant '{}'", variable, chosen));
}

const std::string& sm_copy_variant() {
  static const std::string v =
      experiment("FABRICBENCH_EXPERIMENT_SM_COPY", "per-copy", {"per-copy", "looped", "looped-narrow"});
  return v;
}

bool driver_allocates_host_memory() {
  static const bool v =
      experiment("FABRICBENCH_EXPERIMENT_HOST_ALLOC", "register", {"register", "hostalloc"}) == "hostalloc";
  return v;
}

}  // namespace

bool enable_peer_access(int device, int peer) {
  int can = 0;
  FB_CUDA(cudaDeviceCanAccessPeer(&can, device, peer));
  if (!can) return false;
  set_device(device);
  const cudaError_t err = cudaDeviceEnablePeerAccess(peer, 0);
  if (err == cudaErrorPeerAccessAlreadyEnabled) {
    (void)cudaGetLastError();
    return true;
  }
  check_cuda(err, "cudaDeviceEnablePeerAccess(peer, 0)", __FILE__, __LINE__);
  return true;
}

void copy_peer_async(void* dst, int dst_device, const void* src, int src_device, std::size_t bytes,
                     const Stream& s) {
  FB_CUDA(cudaMemcpyPeerAsync(dst, dst_device, src, src_device, bytes, as_stream(s)));
}

void copy_async(void* dst, const void* src, std::size_t bytes, const Stream& s) {
  FB_CUDA(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, as_stream(s)));
}

void sm_copy_async(void* dst, const void* src, std::size_t bytes, const Stream& s, int repeats) {
  const auto& variant = sm_copy_variant();
  const int blocks = sm_count() * (variant == "looped-narrow" ? 1 : 4);
  if (variant == "per-copy")
    for (int r = 0; r < repeats; ++r) kernels::sm_copy(dst, src, bytes, 1, blocks, as_stream(s));
  else
    kernels::sm_copy(dst, src, bytes, repeats, blocks, as_stream(s));
  FB_CUDA_LAUNCH("SM copy kernel");
}

PinnedBuffer::PinnedBuffer(std::size_t bytes, const std::string& cpulist) : bytes_(bytes) {
  if (driver_allocates_host_memory()) {
    int device = 0;
    FB_CUDA(cudaGetDevice(&device));
    void* p = nullptr;
    cudaError_t err = cudaSuccess;
    std::thread allocator([&] {  // from the GPU's CPUs, as nvbandwidth allocates (its NUMA node)
      bind_to_cpus(parse_cpulist(cpulist));
      err = cudaSetDevice(device);
      if (err == cudaSuccess) err = cudaHostAlloc(&p, bytes, cudaHostAllocPortable | cudaHostAllocMapped);
    });
    allocator.join();
    check_allocation(err, bytes, Memory::pinned_host, "cudaHostAlloc(&p, bytes, ...)", __FILE__, __LINE__);
    ptr_ = p;
    driver_allocated_ = true;
    return;
  }
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    raise(ExitCode::environment,
          fmt::format("cannot allocate {} of host memory: {}; use a smaller --size", format_bytes(bytes),
                      std::strerror(errno)),
          __FILE__, __LINE__, "mmap");
  // First touch from a thread on the GPU's local CPUs: Linux places the pages on their node.
  std::thread toucher([&] {
    bind_to_cpus(parse_cpulist(cpulist));
    std::memset(p, 0, bytes);
  });
  toucher.join();
  const cudaError_t err = cudaHostRegister(p, bytes, cudaHostRegisterMapped | cudaHostRegisterPortable);
  if (err != cudaSuccess) ::munmap(p, bytes);
  check_allocation(err, bytes, Memory::pinned_host, "cudaHostRegister(p, bytes, ...)", __FILE__, __LINE__);
  ptr_ = p;
}

PinnedBuffer::~PinnedBuffer() {
  if (!ptr_) return;
  if (driver_allocated_) {
    (void)cudaFreeHost(ptr_);
    return;
  }
  (void)cudaHostUnregister(ptr_);
  ::munmap(ptr_, bytes_);
}

StartGate::StartGate() {
  int* p = nullptr;
  FB_CUDA(cudaHostAlloc(&p, sizeof(int), cudaHostAllocMapped | cudaHostAllocPortable));
  *p = 0;
  flag_ = p;
}

StartGate::~StartGate() {
  if (flag_) (void)cudaFreeHost(const_cast<int*>(flag_));
}

void StartGate::hold(const Stream& s) {
  *flag_ = 0;
  const int khz = current_device_attribute(cudaDevAttrClockRate);
  const long long ten_seconds = static_cast<long long>(khz > 0 ? khz : 2000000) * 1000LL * 10;
  void* device_flag = nullptr;
  FB_CUDA(cudaHostGetDevicePointer(&device_flag, const_cast<int*>(flag_), 0));
  kernels::spin(static_cast<int*>(device_flag), ten_seconds, as_stream(s));
  FB_CUDA_LAUNCH("start gate kernel");
}

void StartGate::release() {
  __sync_synchronize();
  *flag_ = 1;
  __sync_synchronize();
}

void fill_pattern(void* buf, std::size_t bytes, std::uint32_t seed, const Stream& s) {
  kernels::fill_pattern(static_cast<std::uint32_t*>(buf), bytes / 4, seed, sm_count() * 4, as_stream(s));
  FB_CUDA_LAUNCH("pattern fill kernel");
}

void fill_pattern_host(void* buf, std::size_t bytes, std::uint32_t seed) {
  auto* w = static_cast<std::uint32_t*>(buf);
  for (std::size_t i = 0; i < bytes / 4; ++i) w[i] = pattern(i, seed);
}

std::uint64_t count_pattern_mismatches(const void* buf, std::size_t bytes, std::uint32_t seed,
                                       const Stream& s) {
  DeviceBuffer counter(sizeof(unsigned long long));
  memset_async(counter.data(), 0, sizeof(unsigned long long), s);
  kernels::check_pattern(static_cast<const std::uint32_t*>(buf), bytes / 4, seed,
                         static_cast<unsigned long long*>(counter.data()), sm_count() * 4, as_stream(s));
  FB_CUDA_LAUNCH("pattern check kernel");
  unsigned long long bad = 0;
  FB_CUDA(cudaMemcpyAsync(&bad, counter.data(), sizeof bad, cudaMemcpyDeviceToHost, as_stream(s)));
  s.synchronize();
  return bad;
}

std::uint64_t count_pattern_mismatches_host(const void* buf, std::size_t bytes, std::uint32_t seed) {
  const auto* w = static_cast<const std::uint32_t*>(buf);
  std::uint64_t bad = 0;
  for (std::size_t i = 0; i < bytes / 4; ++i) bad += w[i] != pattern(i, seed);
  return bad;
}

const void* mapped_device_pointer(const void* host) {
  void* dev = nullptr;
  FB_CUDA(cudaHostGetDevicePointer(&dev, const_cast<void*>(host), 0));
  return dev;
}

void build_chase(void* buf, std::size_t bytes, std::size_t stride, bool host_memory, const Stream& s) {
  const std::size_t slots = bytes / stride;
  std::vector<std::uint64_t> image(bytes / sizeof(std::uint64_t), 0);
  std::uint64_t base = reinterpret_cast<std::uint64_t>(buf);
  if (host_memory) base = reinterpret_cast<std::uint64_t>(mapped_device_pointer(buf));
  // Slot k points to slot k+1 (a stride apart), the last back to the first.
  for (std::size_t k = 0; k < slots; ++k)
    image[k * stride / sizeof(std::uint64_t)] = base + ((k + 1) % slots) * stride;
  if (host_memory) {
    std::memcpy(buf, image.data(), bytes);
  } else {
    FB_CUDA(cudaMemcpyAsync(buf, image.data(), bytes, cudaMemcpyHostToDevice, as_stream(s)));
    s.synchronize();
  }
}

double chase_ns_per_hop(const void* start, int hops, const Stream& s) {
  DeviceBuffer sink(sizeof(std::uint64_t));
  Event a;
  Event b;
  kernels::chase(static_cast<const std::uint64_t*>(start), 64, static_cast<std::uint64_t*>(sink.data()),
                 as_stream(s));
  a.record(s);
  kernels::chase(static_cast<const std::uint64_t*>(start), hops, static_cast<std::uint64_t*>(sink.data()),
                 as_stream(s));
  b.record(s);
  FB_CUDA_LAUNCH("pointer chase kernel");
  b.synchronize();
  return Event::elapsed_ms(a, b) * 1e6 / hops;
}

}  // namespace fb::gpu
