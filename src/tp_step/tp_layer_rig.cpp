#include "tp_step/tp_layer_rig.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "gpu/copy_ops.hpp"

namespace fb {
namespace {

constexpr int kBatches = 10;
constexpr int kBf16 = 2;

// Repetitions per graph: enough that one launch's overhead stays near 1% of a batch, few enough
// that a batch of prefill-sized work stays short.
int reps_for(bool large) { return large ? 5 : 20; }
constexpr std::uint64_t kLargeBytes = 16u << 20;
constexpr std::int64_t kLargeTokens = 1024;

gpu::DeviceBuffer filled(std::size_t bytes, const gpu::Stream& s) {
  gpu::DeviceBuffer b(bytes);
  gpu::memset_async(b.data(), 0x3c, bytes, s);  // bf16 0x3c3c, about 0.0115: finite, no overflow
  return b;
}

// One GEMM's input, weights and output on one GPU.
struct GemmBuffers {
  gpu::DeviceBuffer in, weights, out;
  GemmBuffers(const GemmShape& g, const gpu::Stream& s)
      : in(filled(static_cast<std::size_t>(g.m * g.k * kBf16), s)),
        weights(filled(static_cast<std::size_t>(g.k * g.n * kBf16), s)),
        out(filled(static_cast<std::size_t>(g.m * g.n * kBf16), s)) {}
};

void run(gpu::Blas& blas, const GemmShape& g, const GemmBuffers& b) {
  blas.gemm_bf16(static_cast<int>(g.m), static_cast<int>(g.n), static_cast<int>(g.k), b.in.data(),
                 b.weights.data(), b.out.data());
}

}  // namespace

struct TpLayerRig::Lane {
  GpuLane gpu;
  std::unique_ptr<gpu::Blas> blas;
};

TpLayerRig::TpLayerRig(std::shared_ptr<const NcclLibrary> lib, int gpus) : lib_(std::move(lib)) {
  std::vector<int> devices;
  for (int d = 0; d < gpus; ++d) {
    gpu::set_device(d);
    auto lane = std::make_unique<Lane>();
    lane->gpu.device = d;
    lane->gpu.stream = std::make_unique<gpu::Stream>();
    lane->blas = std::make_unique<gpu::Blas>(*lane->gpu.stream);
    lanes_.push_back(std::move(lane));
    devices.push_back(d);
  }
  if (gpus > 1) {
    if (!lib_) throw Error(ExitCode::environment, "a tensor-parallel layer on several GPUs needs NCCL");
    nccl_ = make_nccl_collectives(lib_, devices, devices, gpus, make_nccl_unique_id(*lib_));
  }
}

TpLayerRig::~TpLayerRig() = default;

std::vector<GpuLane*> TpLayerRig::lanes(int count) {
  std::vector<GpuLane*> out;
  out.reserve(static_cast<std::size_t>(std::max(count, 0)));
  for (int i = 0; i < count; ++i) out.push_back(&lanes_.at(static_cast<std::size_t>(i))->gpu);
  return out;
}

void TpLayerRig::all_reduce_on(const std::vector<void*>& buffers, std::uint64_t bytes) {
  nccl_->group_start();
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    CollectiveCall c;
    c.local = static_cast<int>(i);
    c.rank = static_cast<int>(i);
    c.nranks = static_cast<int>(buffers.size());
    c.send = buffers[i];
    c.recv = buffers[i];
    c.count = bytes / kBf16;
    c.dtype = DType::bfloat16;
    c.op = RedOp::sum;
    c.stream = lanes_[i]->gpu.stream->handle();
    nccl_->all_reduce(c);
  }
  nccl_->group_end();
}

GraphTiming TpLayerRig::gemm(const GemmShape& g) {
  auto& lane = *lanes_.front();
  gpu::set_device(lane.gpu.device);
  const GemmBuffers buffers(g, *lane.gpu.stream);
  return time_in_graphs(lanes(1), reps_for(g.m >= kLargeTokens), kBatches,
                        [&] { run(*lane.blas, g, buffers); });
}

GraphTiming TpLayerRig::all_reduce(std::uint64_t bytes) {
  if (!nccl_) throw Error(ExitCode::usage, "an all_reduce needs at least 2 GPUs");
  std::vector<gpu::DeviceBuffer> buffers;
  std::vector<void*> data;
  for (auto& lane : lanes_) {
    gpu::set_device(lane->gpu.device);
    buffers.push_back(filled(bytes, *lane->gpu.stream));
    data.push_back(buffers.back().data());
  }
  return time_in_graphs(lanes(static_cast<int>(lanes_.size())), reps_for(bytes >= kLargeBytes), kBatches,
                        [&] { all_reduce_on(data, bytes); });
}

GraphTiming TpLayerRig::layer(const ModelShape& m, int tp, std::int64_t tokens) {
  if (tp > static_cast<int>(lanes_.size()) || (tp > 1 && tp != static_cast<int>(lanes_.size())))
    throw Error(ExitCode::usage, "the validation layer runs at TP=1 or on all the rig's GPUs");
  const auto gemms = tp_layer_gemms(m, tp, tokens);
  std::vector<std::vector<GemmBuffers>> shards(static_cast<std::size_t>(tp));  // [gpu][gemm]
  for (int i = 0; i < tp; ++i) {
    gpu::set_device(lanes_[i]->gpu.device);
    for (const auto& g : gemms) shards[i].emplace_back(g, *lanes_[i]->gpu.stream);
  }
  const auto run_gemm = [&](std::size_t which) {
    for (int i = 0; i < tp; ++i) {
      gpu::set_device(lanes_[i]->gpu.device);
      run(*lanes_[i]->blas, gemms[which], shards[i][which]);
    }
  };
  const auto reduce = [&](std::size_t which) {
    if (tp == 1) return;
    std::vector<void*> data;
    data.reserve(static_cast<std::size_t>(tp));
    for (int i = 0; i < tp; ++i) data.push_back(shards[i][which].out.data());
    all_reduce_on(data, allreduce_bytes(m, tokens));
  };
  return time_in_graphs(lanes(tp), reps_for(tokens >= kLargeTokens), kBatches, [&] {
    run_gemm(0);  // qkv
    run_gemm(1);  // attention output (row-parallel)
    reduce(1);
    run_gemm(2);  // gate and up
    run_gemm(3);  // down (row-parallel)
    reduce(3);
  });
}

double TpLayerRig::copy_gbps(std::uint64_t bytes) {
  auto& lane = *lanes_.front();
  gpu::set_device(lane.gpu.device);
  const gpu::DeviceBuffer src = filled(bytes, *lane.gpu.stream);
  const gpu::DeviceBuffer dst = filled(bytes, *lane.gpu.stream);
  const auto t = time_in_graphs(lanes(1), 5, kBatches,
                                [&] { gpu::sm_copy_async(dst.data(), src.data(), bytes, *lane.gpu.stream); });
  return 2.0 * static_cast<double>(bytes) / (t.median_us * 1e-6) / 1e9;
}

}  // namespace fb
