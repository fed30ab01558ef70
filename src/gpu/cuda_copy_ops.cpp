// Host side of gpu/copy_ops.hpp (CUDA).
#include <cuda_runtime.h>
#include <fmt/format.h>
#include <sched.h>
#include <sys/mman.h>

#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "core/cpu_affinity.hpp"
#include "core/error.hpp"
#include "gpu/copy_ops.hpp"
#include "gpu/kernels/copy_kernels.hpp"
#include "gpu/kernels/pattern.hpp"

namespace fb::gpu {
namespace {

void check(cudaError_t err, const char* what) {
  if (err != cudaSuccess)
    throw Error(ExitCode::run_failed, fmt::format("{}: {} ({})", what, cudaGetErrorString(err), cudaGetErrorName(err)));
}

cudaStream_t as_stream(const Stream& s) { return static_cast<cudaStream_t>(s.handle()); }

int sm_count() {
  int dev = 0;
  int sms = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  return sms > 0 ? sms : 1;
}

}  // namespace

bool enable_peer_access(int device, int peer) {
  int can = 0;
  check(cudaDeviceCanAccessPeer(&can, device, peer), "cudaDeviceCanAccessPeer");
  if (!can) return false;
  set_device(device);
  const cudaError_t err = cudaDeviceEnablePeerAccess(peer, 0);
  if (err == cudaErrorPeerAccessAlreadyEnabled) {
    cudaGetLastError();
    return true;
  }
  check(err, "cudaDeviceEnablePeerAccess");
  return true;
}

void copy_peer_async(void* dst, int dst_device, const void* src, int src_device, std::size_t bytes, const Stream& s) {
  check(cudaMemcpyPeerAsync(dst, dst_device, src, src_device, bytes, as_stream(s)), "cudaMemcpyPeerAsync");
}

void copy_async(void* dst, const void* src, std::size_t bytes, const Stream& s) {
  check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, as_stream(s)), "cudaMemcpyAsync");
}

void sm_copy_async(void* dst, const void* src, std::size_t bytes, const Stream& s) {
  kernels::sm_copy(dst, src, bytes, sm_count() * 4, as_stream(s));
  check_last_launch("SM copy kernel");
}

PinnedBuffer::PinnedBuffer(std::size_t bytes, const std::string& cpulist) : bytes_(bytes) {
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    throw Error(ExitCode::usage, fmt::format("cannot allocate {} bytes of host memory", bytes));
  // First touch from a thread on the GPU's local CPUs: Linux places the pages on their node.
  std::thread toucher([&] {
    bind_to_cpus(parse_cpulist(cpulist));
    std::memset(p, 0, bytes);
  });
  toucher.join();
  const cudaError_t err = cudaHostRegister(p, bytes, cudaHostRegisterMapped | cudaHostRegisterPortable);
  if (err != cudaSuccess) {
    ::munmap(p, bytes);
    throw Error(ExitCode::usage, fmt::format("cannot pin {} bytes of host memory: {}", bytes, cudaGetErrorString(err)));
  }
  ptr_ = p;
}

PinnedBuffer::~PinnedBuffer() {
  if (!ptr_) return;
  cudaHostUnregister(ptr_);
  ::munmap(ptr_, bytes_);
}

StartGate::StartGate() {
  int* p = nullptr;
  check(cudaHostAlloc(&p, sizeof(int), cudaHostAllocMapped | cudaHostAllocPortable), "cudaHostAlloc (start gate)");
  *p = 0;
  flag_ = p;
}

StartGate::~StartGate() {
  if (flag_) cudaFreeHost(const_cast<int*>(flag_));
}

void StartGate::hold(const Stream& s) {
  *flag_ = 0;
  int dev = 0;
  int khz = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev);
  const long long ten_seconds = static_cast<long long>(khz > 0 ? khz : 2000000) * 1000LL * 10;
  int* device_flag = nullptr;
  check(cudaHostGetDevicePointer(&device_flag, const_cast<int*>(flag_), 0), "cudaHostGetDevicePointer");
  kernels::spin(device_flag, ten_seconds, as_stream(s));
  check_last_launch("start gate kernel");
}

void StartGate::release() {
  __sync_synchronize();
  *flag_ = 1;
  __sync_synchronize();
}

void fill_pattern(void* buf, std::size_t bytes, std::uint32_t seed, const Stream& s) {
  kernels::fill_pattern(static_cast<std::uint32_t*>(buf), bytes / 4, seed, sm_count() * 4, as_stream(s));
  check_last_launch("pattern fill");
}

void fill_pattern_host(void* buf, std::size_t bytes, std::uint32_t seed) {
  auto* w = static_cast<std::uint32_t*>(buf);
  for (std::size_t i = 0; i < bytes / 4; ++i) w[i] = pattern(i, seed);
}

std::uint64_t count_pattern_mismatches(const void* buf, std::size_t bytes, std::uint32_t seed, const Stream& s) {
  DeviceBuffer counter(sizeof(unsigned long long));
  memset_async(counter.data(), 0, sizeof(unsigned long long), s);
  kernels::check_pattern(static_cast<const std::uint32_t*>(buf), bytes / 4, seed,
                         static_cast<unsigned long long*>(counter.data()), sm_count() * 4, as_stream(s));
  check_last_launch("pattern check");
  unsigned long long bad = 0;
  check(cudaMemcpyAsync(&bad, counter.data(), sizeof bad, cudaMemcpyDeviceToHost, as_stream(s)), "read check count");
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
  check(cudaHostGetDevicePointer(&dev, const_cast<void*>(host), 0), "cudaHostGetDevicePointer");
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
    check(cudaMemcpyAsync(buf, image.data(), bytes, cudaMemcpyHostToDevice, as_stream(s)), "chase upload");
    s.synchronize();
  }
}

double chase_ns_per_hop(const void* start, int hops, const Stream& s) {
  DeviceBuffer sink(sizeof(std::uint64_t));
  Event a;
  Event b;
  kernels::chase(static_cast<const std::uint64_t*>(start), 64, static_cast<std::uint64_t*>(sink.data()), as_stream(s));
  a.record(s);
  kernels::chase(static_cast<const std::uint64_t*>(start), hops, static_cast<std::uint64_t*>(sink.data()), as_stream(s));
  b.record(s);
  check_last_launch("pointer chase");
  b.synchronize();
  return Event::elapsed_ms(a, b) * 1e6 / hops;
}

}  // namespace fb::gpu
