#pragma once
// The GPU runtime behind one vendor-neutral header: device queries and RAII wrappers for
// streams, events, device buffers and graphs. cuda_runtime.cpp implements it for CUDA and, through
// the portability header gpu_api.hpp, for HIP.
#include <cstddef>
#include <cstdint>
#include <string>

namespace fb::gpu {

struct DeviceProps {
  std::string name;
  std::string pci_bus_id;  // "0000:18:00.0"
  std::uint64_t memory_bytes = 0;
  int compute_capability = 0;  // major*10 + minor (on AMD, HIP's major.minor: gfx90a is 9.0, gfx942 9.4)
  std::string arch;            // "sm_90", "gfx942" (gpu/vendor.hpp)
};

struct MemInfo {
  std::uint64_t free = 0;
  std::uint64_t total = 0;
};

// Number of visible GPUs. Throws Error(environment) with the runtime's reason when there is no
// usable GPU or driver; never creates a context.
int device_count();
DeviceProps device_props(int device);
std::string driver_version();   // "13.0"
std::string runtime_version();  // "13.0"

void set_device(int device);

// Peer access from `a` to `b`, and the runtime's performance rank of that path (lower is
// better; -1 unknown). Neither creates a context.
bool can_access_peer(int a, int b);
int p2p_performance_rank(int a, int b);
MemInfo mem_info();  // of the current device (creates its context)

class Stream {
 public:
  Stream();
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  [[nodiscard]] void* handle() const { return stream_; }
  void synchronize() const;  // the runtime's wait (spins on this host)
  // Polls and yields the CPU between polls, as nccl-tests does: a rank bound to one core
  // (mpirun's default; srun's with --cpu-bind) shares it with NCCL's proxy thread, which the network
  // transport needs.
  void wait_yielding() const;

 private:
  void* stream_ = nullptr;
};

class Event {
 public:
  Event();
  ~Event();
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  void record(const Stream& s);
  void synchronize() const;
  void wait_yielding() const;  // see Stream::wait_yielding
  // Milliseconds between two recorded events.
  static double elapsed_ms(const Event& start, const Event& stop);

 private:
  void* event_ = nullptr;
};

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t bytes);
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer&& o) noexcept;
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  [[nodiscard]] void* data() const { return ptr_; }
  [[nodiscard]] std::size_t size() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

// A captured stream graph, instantiated and ready to launch.
class Graph {
 public:
  Graph() = default;
  ~Graph();
  Graph(Graph&& o) noexcept;
  Graph& operator=(Graph&& o) noexcept;
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  static void begin_capture(const Stream& s);
  // Ends the capture; instantiate() afterwards, once no stream of this thread is capturing
  // (instantiating is not allowed while another capture is open in thread-local mode).
  static Graph end_capture(const Stream& s);
  void instantiate();
  void launch(const Stream& s) const;

 private:
  void* graph_ = nullptr;
  void* exec_ = nullptr;
};

void memset_async(void* ptr, int byte, std::size_t bytes, const Stream& s);

}  // namespace fb::gpu
