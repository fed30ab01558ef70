// Host side of gpu/copy_ops.hpp (CUDA).
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "core/cpu_affinity.hpp"
#include "core/error.hpp"
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

// Blocks of 512 threads per SM of an SM copy's grid.
constexpr int kSmCopyBlocksPerSm = 4;

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

// A batch of SM copies is one launch that repeats the copy (as nvbandwidth's copy kernel loops), so
// the link never waits at a kernel boundary for the last copy's writes (docs/metrics.md, p2p).
void sm_copy_async(void* dst, const void* src, std::size_t bytes, const Stream& s, int repeats) {
  kernels::sm_copy(dst, src, bytes, repeats, sm_count() * kSmCopyBlocksPerSm, as_stream(s));
  FB_CUDA_LAUNCH("SM copy kernel");
}

// Allocated by the driver (cudaHostAlloc, as nvbandwidth allocates with cuMemHostAlloc) from a thread
// on the GPU's local CPUs, so that the pages land on their NUMA node. Registering pages that were
// first touched there instead (mmap + cudaHostRegister) ran the GPU's SM writes to host memory 3-12%
// below nvbandwidth's on an H100 (issue 52; docs/metrics.md, p2p).
PinnedBuffer::PinnedBuffer(std::size_t bytes, const std::string& cpulist) : bytes_(bytes) {
  int device = 0;
  FB_CUDA(cudaGetDevice(&device));
  void* p = nullptr;
  cudaError_t err = cudaSuccess;
  std::thread allocator([&] {
    bind_to_cpus(parse_cpulist(cpulist));
    err = cudaSetDevice(device);
    if (err == cudaSuccess) err = cudaHostAlloc(&p, bytes, cudaHostAllocPortable | cudaHostAllocMapped);
  });
  allocator.join();
  check_allocation(err, bytes, Memory::pinned_host, "cudaHostAlloc(&p, bytes, ...)", __FILE__, __LINE__);
  ptr_ = p;
}

PinnedBuffer::~PinnedBuffer() {
  if (ptr_) (void)cudaFreeHost(ptr_);
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
