#pragma once
// What p2p measurements are made of, behind the runtime-neutral header: peer access, copy
// engine copies, an SM copy kernel, a start gate that holds streams until everything is
// queued, pattern fill/check, and a pointer-chase latency kernel.
#include <cstddef>
#include <cstdint>

#include "gpu/runtime.hpp"

namespace fb::gpu {

// Enables `device` to access `peer`'s memory (idempotent). False when the pair has no access.
bool enable_peer_access(int device, int peer);

// Copy engine copies.
void copy_peer_async(void* dst, int dst_device, const void* src, int src_device, std::size_t bytes,
                     const Stream& s);
void copy_async(void* dst, const void* src, std::size_t bytes, const Stream& s);  // host<->device

// SM copy kernel (16-byte loads and stores), launched on the current device: `bytes` copied `repeats`
// times back to back in one launch (a timed batch of copies with one kernel boundary, as nvbandwidth).
void sm_copy_async(void* dst, const void* src, std::size_t bytes, const Stream& s, int repeats = 1);

// Page-locked host memory allocated by the driver from a thread on the CPUs in `cpulist` (so that it
// lands on their NUMA node), mapped for device access.
class PinnedBuffer {
 public:
  PinnedBuffer(std::size_t bytes, const std::string& cpulist);
  ~PinnedBuffer();
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  [[nodiscard]] void* data() const { return ptr_; }
  [[nodiscard]] std::size_t size() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

// Holds streams until release(): each stream waits on a spinning kernel, so the work queued
// behind it starts together and enqueue overhead stays out of the timing. The kernel gives
// up after a timeout, so a forgotten release cannot hang the GPU.
class StartGate {
 public:
  StartGate();
  ~StartGate();
  StartGate(const StartGate&) = delete;
  StartGate& operator=(const StartGate&) = delete;
  void hold(const Stream& s);  // launches the spin kernel on `s` (on the current device)
  void release();

 private:
  volatile int* flag_ = nullptr;
};

// 32-bit words pattern(i, seed), never 0.
void fill_pattern(void* buf, std::size_t bytes, std::uint32_t seed, const Stream& s);
void fill_pattern_host(void* buf, std::size_t bytes, std::uint32_t seed);
std::uint64_t count_pattern_mismatches(const void* buf, std::size_t bytes, std::uint32_t seed,
                                       const Stream& s);
std::uint64_t count_pattern_mismatches_host(const void* buf, std::size_t bytes, std::uint32_t seed);

// The device's address of mapped, page-locked host memory.
const void* mapped_device_pointer(const void* host);

// Pointer chase: `buf` (device or mapped host memory, `bytes` long) becomes a cycle with
// `stride`-byte steps; chase_ns_per_hop() follows it `hops` times from one thread on the
// current device and returns the time per hop in nanoseconds.
void build_chase(void* buf, std::size_t bytes, std::size_t stride, bool host_memory, const Stream& s);
double chase_ns_per_hop(const void* buf, int hops, const Stream& s);

}  // namespace fb::gpu
