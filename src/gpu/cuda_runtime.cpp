// The runtime behind gpu/runtime.hpp, for CUDA and (through gpu_api.hpp) HIP.
#include <fmt/format.h>
#include <sched.h>

#include <array>
#include <filesystem>
#include <utility>

#include "core/error.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/gpu_api.hpp"
#include "gpu/runtime.hpp"
#include "gpu/vendor.hpp"

namespace fb::gpu {
namespace {

// Why the runtime's driver check failed, in the vendor's words.
std::string missing_driver_message(const char* error_name) {
  int runtime = 0;
  (void)cudaRuntimeGetVersion(&runtime);
  if (build_vendor() == Vendor::amd)
    return fmt::format(
        "no usable GPU: no AMD GPU driver (amdgpu, /dev/kfd) is loaded, or it is older than the "
        "HIP {} runtime this build needs ({})",
        format_version(runtime), error_name);
  return fmt::format(
      "no usable GPU: no NVIDIA driver is loaded, or it is older than the CUDA "
      "{} runtime this build needs ({})",
      format_version(runtime), error_name);
}

// AMD's architecture name ("gfx942:sramecc+:xnack-"); CUDA's properties have none.
template <typename Props>
std::string_view gcn_arch_name(const Props& p) {
  if constexpr (requires { p.gcnArchName; })
    return p.gcnArchName;
  else
    return {};
}

}  // namespace

int device_count() {
  int n = 0;
  const cudaError_t err = cudaGetDeviceCount(&n);
  // HIP answers "no device" when the driver is missing too: /dev/kfd tells the two apart.
  if (err == cudaErrorNoDevice && build_vendor() == Vendor::amd && !std::filesystem::exists("/dev/kfd"))
    throw Error(
        ExitCode::environment,
        fmt::format("no usable GPU: /dev/kfd is missing, so no AMD GPU driver (amdgpu) is loaded ({})",
                    cudaGetErrorName(err)));
  if (err == cudaErrorNoDevice || (err == cudaSuccess && n == 0))
    throw Error(ExitCode::environment,
                fmt::format("no GPU found: the {} runtime sees no device", runtime_name()));
  if (err == cudaErrorInsufficientDriver)
    throw Error(ExitCode::environment, missing_driver_message(cudaGetErrorName(err)));
  if (err != cudaSuccess)
    throw Error(ExitCode::environment,
                fmt::format("no usable GPU: {} ({})", cudaGetErrorString(err), cudaGetErrorName(err)));
  return n;
}

DeviceProps device_props(int device) {
  cudaDeviceProp p{};
  FB_CUDA(cudaGetDeviceProperties(&p, device));
  std::array<char, 32> bus{};
  FB_CUDA(cudaDeviceGetPCIBusId(bus.data(), static_cast<int>(bus.size()), device));
  return {p.name, bus.data(), static_cast<std::uint64_t>(p.totalGlobalMem), p.major * 10 + p.minor,
          arch_name(p.major, p.minor, gcn_arch_name(p))};
}

std::string driver_version() {
  int v = 0;
  FB_CUDA(cudaDriverGetVersion(&v));
  return format_version(v);
}

std::string runtime_version() {
  int v = 0;
  FB_CUDA(cudaRuntimeGetVersion(&v));
  return format_version(v);
}

void set_device(int device) { FB_CUDA(cudaSetDevice(device)); }

bool can_access_peer(int a, int b) {
  int v = 0;
  FB_CUDA(cudaDeviceCanAccessPeer(&v, a, b));
  return v != 0;
}

int p2p_performance_rank(int a, int b) {
  int v = -1;
  if (cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrPerformanceRank, a, b) != cudaSuccess) {
    (void)cudaGetLastError();
    return -1;
  }
  return v;
}

MemInfo mem_info() {
  std::size_t free = 0;
  std::size_t total = 0;
  FB_CUDA(cudaMemGetInfo(&free, &total));
  return {free, total};
}

Stream::Stream() {
  cudaStream_t s = nullptr;
  FB_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  stream_ = s;
}
Stream::~Stream() {
  if (stream_) (void)cudaStreamDestroy(static_cast<cudaStream_t>(stream_));
}
// Spinning in cudaStreamSynchronize on a core shared with NCCL's proxy thread measured
// all_reduce 64 MiB over NCCL's socket transport at 0.41 GB/s; polling and yielding, 3.2 GB/s.
// The copy benchmarks keep the runtime's spin: with the yielding wait, host->device copies
// read 1.5-3% lower on 2 x H200 (four of four pairs).
namespace {
template <typename Query, typename Object>
cudaError_t wait_yielding(Query query, Object object) {
  cudaError_t err;
  while ((err = query(object)) == cudaErrorNotReady) sched_yield();
  return err;
}
}  // namespace

void Stream::synchronize() const { FB_CUDA(cudaStreamSynchronize(as_stream(*this))); }

void Stream::wait_yielding() const { FB_CUDA(fb::gpu::wait_yielding(cudaStreamQuery, as_stream(*this))); }

Event::Event() {
  cudaEvent_t e = nullptr;
  FB_CUDA(cudaEventCreate(&e));
  event_ = e;
}
Event::~Event() {
  if (event_) (void)cudaEventDestroy(static_cast<cudaEvent_t>(event_));
}
void Event::record(const Stream& s) {
  FB_CUDA(cudaEventRecord(static_cast<cudaEvent_t>(event_), as_stream(s)));
}
void Event::synchronize() const { FB_CUDA(cudaEventSynchronize(static_cast<cudaEvent_t>(event_))); }

void Event::wait_yielding() const {
  FB_CUDA(fb::gpu::wait_yielding(cudaEventQuery, static_cast<cudaEvent_t>(event_)));
}
double Event::elapsed_ms(const Event& start, const Event& stop) {
  float ms = 0;
  FB_CUDA(cudaEventElapsedTime(&ms, static_cast<cudaEvent_t>(start.event_),
                               static_cast<cudaEvent_t>(stop.event_)));
  return ms;
}

DeviceBuffer::DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
  if (bytes == 0) return;
  FB_CUDA_ALLOC(cudaMalloc(&ptr_, bytes), bytes, Memory::device);
}
DeviceBuffer::~DeviceBuffer() {
  if (ptr_) (void)cudaFree(ptr_);
}
DeviceBuffer::DeviceBuffer(DeviceBuffer&& o) noexcept
    : ptr_(std::exchange(o.ptr_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}
DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& o) noexcept {
  std::swap(ptr_, o.ptr_);
  std::swap(bytes_, o.bytes_);
  return *this;
}

Graph::~Graph() {
  if (exec_) (void)cudaGraphExecDestroy(static_cast<cudaGraphExec_t>(exec_));
  if (graph_) (void)cudaGraphDestroy(static_cast<cudaGraph_t>(graph_));
}
Graph::Graph(Graph&& o) noexcept
    : graph_(std::exchange(o.graph_, nullptr)), exec_(std::exchange(o.exec_, nullptr)) {}
Graph& Graph::operator=(Graph&& o) noexcept {
  std::swap(graph_, o.graph_);
  std::swap(exec_, o.exec_);
  return *this;
}
void Graph::begin_capture(const Stream& s) {
  // Thread-local mode: other threads' CUDA calls do not break this capture.
  FB_CUDA(cudaStreamBeginCapture(as_stream(s), cudaStreamCaptureModeThreadLocal));
}
Graph Graph::end_capture(const Stream& s) {
  Graph g;
  cudaGraph_t graph = nullptr;
  FB_CUDA(cudaStreamEndCapture(as_stream(s), &graph));
  g.graph_ = graph;
  return g;
}
void Graph::instantiate() {
  cudaGraphExec_t exec = nullptr;
  FB_CUDA(cudaGraphInstantiate(&exec, static_cast<cudaGraph_t>(graph_), 0));
  exec_ = exec;
}
void Graph::launch(const Stream& s) const {
  FB_CUDA(cudaGraphLaunch(static_cast<cudaGraphExec_t>(exec_), as_stream(s)));
}

void memset_async(void* ptr, int byte, std::size_t bytes, const Stream& s) {
  FB_CUDA(cudaMemsetAsync(ptr, byte, bytes, as_stream(s)));
}

}  // namespace fb::gpu
