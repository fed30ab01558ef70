#include "bench/collective_driver.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <sstream>
#include <thread>
#include <utility>

#include "bench/comm_buffer.hpp"
#include "bench/iteration_times.hpp"
#include "bench/sampler.hpp"
#include "core/error.hpp"
#include "core/units.hpp"
#include "gpu/copy_ops.hpp"
#include "gpu/runtime.hpp"
#include "gpu/verify.hpp"

namespace fb {
namespace {

using Clock = std::chrono::steady_clock;

struct LocalGpu {
  int device = 0;
  int rank = 0;
  gpu::Stream stream;
  CommBuffer send;
  CommBuffer recv;
  gpu::DeviceBuffer barrier_word;  // the one-element all_reduce that aligns the ranks' batches
  gpu::Event start[2];             // two batches in flight (Driver::run_point): one being read, one queued
  gpu::Event stop[2];
  gpu::Verifier verifier;
  gpu::Graph graph;
  IterationMarks marks;  // the tail's single operations (bench/iteration_times.hpp)
};

// Buffers one call uses, following nccl-tests' in-place conventions.
struct CallBuffers {
  const void* send;
  void* recv;
};

class Driver {
 public:
  Driver(const Plan& plan, const LocalAssignment& local, Collectives& coll, Bootstrap& boot,
         ProgressSink& sink)
      : plan_(plan), coll_(coll), boot_(boot), sink_(sink), needs_(buffer_needs(plan)) {
    for (std::size_t i = 0; i < local.devices.size(); ++i) {
      gpu::set_device(local.devices[i]);
      auto g = std::make_unique<LocalGpu>();
      g->device = local.devices[i];
      g->rank = local.ranks[i];
      g->send = CommBuffer(coll, needs_.send, plan.settings.alloc);
      g->recv = CommBuffer(coll, needs_.recv, plan.settings.alloc);
      g->barrier_word = gpu::DeviceBuffer(sizeof(float));
      fill(*g);
      gpus_.push_back(std::move(g));
    }
    synchronize();
  }

  void run_all() {
    for (std::size_t r = 0; r < plan_.runs.size(); ++r) {
      const auto& run = plan_.runs[r];
      for (const auto& p : run.points) {
        sink_.begin(label(run, p));
        const Point point = run_point(run, p);
        if (boot_.rank() == 0) sink_.point(static_cast<int>(r), point);
      }
    }
  }

 private:
  static std::string label(const RunPlan& run, const PointPlan& p) {
    const auto& spec = collective(run.collective);
    return fmt::format("{} {}{} {} {}", run.collective, dtype_info(run.dtype).name,
                       spec.reduces ? fmt::format(" {}", redop_info(run.op).name) : std::string(),
                       format_bytes(p.bytes), p.in_place ? "in-place" : "out-of-place");
  }

  // Buffers of iteration `iter`: shifted by whole point sizes, as nccl-tests shifts them.
  CallBuffers buffers(const LocalGpu& g, const PointPlan& p, std::size_t elem, int iter = 0) const {
    const std::size_t shift = static_cast<std::size_t>(iter) % point_steps_ *
                              std::max<std::size_t>(p.counts.send, p.counts.recv) * elem;
    char* send = static_cast<char*>(g.send.data()) + shift;
    char* recv = static_cast<char*>(g.recv.data()) + shift;
    if (!p.in_place) return {send, recv};
    const std::size_t offset = static_cast<std::size_t>(g.rank) * p.counts.param * elem;
    if (p.counts.send_inside_recv) return {recv + offset, recv};
    if (p.counts.recv_inside_send) return {send, send + offset};
    return {recv, recv};
  }

  void launch_once(const RunPlan& run, const PointPlan& p, int iter = 0) {
    const auto& spec = collective(run.collective);
    const auto elem = dtype_info(run.dtype).size;
    // One group over the local GPUs, as nccl-tests does for several GPUs per thread; a
    // single GPU issues its call alone (a group of one only adds host overhead).
    const bool grouped = gpus_.size() > 1;
    if (grouped) coll_.group_start();
    for (std::size_t i = 0; i < gpus_.size(); ++i) {
      auto& g = *gpus_[i];
      const auto b = buffers(g, p, elem, iter);
      CollectiveCall call{static_cast<int>(i), g.rank,    plan_.nranks(), b.send,   b.recv,
                          p.counts.param,      run.dtype, run.op,         run.root, g.stream.handle()};
      spec.launch(coll_, call);
    }
    if (grouped) coll_.group_end();
  }

  // Inputs of random-looking bits unless zeros are asked for: on 2 x H200 all_gather and
  // reduce_scatter at 2-4 GiB ran 2.4-4.5% slower on zeroed buffers (docs/metrics.md, "What
  // the buffers hold").
  void fill(LocalGpu& g) {
    if (plan_.settings.fill == BufferFill::zeros) {
      gpu::memset_async(g.send.data(), 0, needs_.send, g.stream);
      gpu::memset_async(g.recv.data(), 0, needs_.recv, g.stream);
      return;
    }
    gpu::fill_pattern(g.send.data(), needs_.send, static_cast<std::uint32_t>(2 * g.rank), g.stream);
    gpu::fill_pattern(g.recv.data(), needs_.recv, static_cast<std::uint32_t>(2 * g.rank + 1), g.stream);
  }

  void synchronize() {
    for (auto& g : gpus_) g->stream.wait_yielding();
    coll_.check_errors();
  }

  std::int64_t verify_point(const RunPlan& run, const PointPlan& p) {
    const auto& spec = collective(run.collective);
    const auto& info = dtype_info(run.dtype);
    const verify::ValueRule rule{static_cast<int>(run.op), plan_.nranks(), info.exact_int_limit,
                                 info.is_float};
    for (auto& g : gpus_) {
      gpu::set_device(g->device);
      const auto b = buffers(*g, p, info.size);
      if (!p.in_place) gpu::memset_async(g->recv.data(), 0xff, p.counts.recv * info.size, g->stream);
      const std::size_t input_count =
          p.counts.send_inside_recv && p.in_place ? p.counts.param : p.counts.send;
      gpu::fill_inputs(const_cast<void*>(b.send), input_count, run.dtype, rule, g->rank, g->stream);
    }
    synchronize();
    launch_once(run, p);
    synchronize();
    const int checked_rank = spec.verify.only_root_checks ? run.root : 0;
    std::uint64_t wrong = 0;
    for (auto& g : gpus_) {
      if (spec.verify.only_root_checks && g->rank != run.root) continue;
      gpu::set_device(g->device);
      const auto b = buffers(*g, p, info.size);
      if (plan_.settings.inject_corruption && g->rank == checked_rank)
        gpu::memset_async(b.recv, 0xff, info.size, g->stream);  // one element, for the self-test
      const gpu::VerifyParams vp{rule, spec.verify, g->rank, run.root, p.counts.param};
      wrong += g->verifier.count_wrong(b.recv, p.counts.recv, run.dtype, vp, g->stream);
    }
    std::int64_t total = 0;
    for (const auto& s : boot_.allgather(std::to_string(wrong))) total += std::stoll(s);
    return total;
  }

  // A GPU-side barrier queued ahead of the batch: every rank leaves it within a microsecond or
  // two of the others, and the batch's start event, queued right behind it, is recorded then.
  // Not waited for on the host: the host-side release (tens of microseconds apart between
  // processes) and the first operation's launch latency would otherwise count as time - 1-2%
  // of a one-operation batch of 1-3 ms, which nccl-tests spreads over 20 operations.
  void align_ranks() {
    const bool grouped = gpus_.size() > 1;
    if (grouped) coll_.group_start();
    for (std::size_t i = 0; i < gpus_.size(); ++i) {
      auto& g = *gpus_[i];
      float* word = static_cast<float*>(g.barrier_word.data());
      coll_.all_reduce({static_cast<int>(i), g.rank, plan_.nranks(), word, word, 1, DType::float32,
                        RedOp::sum, 0, g.stream.handle()});
    }
    if (grouped) coll_.group_end();
  }

  // Queues one timed batch (behind its barrier) in event slot `slot`; nothing waits for it.
  void enqueue_batch(const RunPlan& run, const PointPlan& p, int slot) {
    const auto& s = plan_.settings.sampling;
    align_ranks();
    for (auto& g : gpus_) g->start[slot].record(g->stream);
    if (s.graph_launches > 0) {
      for (int l = 0; l < s.graph_launches; ++l)
        for (auto& g : gpus_) g->graph.launch(g->stream);
    } else {
      for (int it = 0; it < ops_per_batch_; ++it) launch_once(run, p, it);
    }
    for (auto& g : gpus_) g->stop[slot].record(g->stream);
  }

  // Per-operation time of the batch in `slot` on this process's GPUs (max over them), us.
  double read_batch(int slot) {
    double worst_ms = 0;
    for (auto& g : gpus_) {
      g->stop[slot].wait_yielding();
      worst_ms = std::max(worst_ms, gpu::Event::elapsed_ms(g->start[slot], g->stop[slot]));
    }
    coll_.check_errors();
    const int ops = ops_per_batch_ * std::max(1, plan_.settings.sampling.graph_launches);
    return worst_ms * 1e3 / ops;
  }

  // Timed batches until the sampler is done. While one batch is read and its time shared
  // between the ranks (a host round trip of ~0.1-0.3 ms), the next is already queued, so the
  // fabric does not idle between batches: after such a gap a lone operation of 1-12 ms ran
  // 0.7-1.5% slower than back-to-back ones (2 x H200), which is what nccl-tests times. The
  // batch queued ahead when the sampler stops is run but not counted. Batches of 50 ms or
  // more are not queued ahead: the gap is a fraction of a percent of them, and a slow fabric
  // would pay a whole extra batch per point.
  BatchSampler sample(const RunPlan& run, const PointPlan& p, double batch_s) {
    BatchSampler sampler(plan_.settings.sampling);
    const bool ahead = batch_s < kLookAheadMaxS;
    const auto t0 = Clock::now();
    int slot = 0;
    enqueue_batch(run, p, slot);
    for (bool done = false; !done; slot ^= 1) {
      if (ahead) enqueue_batch(run, p, slot ^ 1);
      const double local_us = read_batch(slot);
      const auto [worst_us, elapsed0] = shared(local_us, seconds_since(t0));
      sampler.add(worst_us);
      done = sampler.done(elapsed0);
      if (!ahead && !done) enqueue_batch(run, p, slot ^ 1);
    }
    if (ahead) synchronize();
    return sampler;
  }

  // `n` operations back to back, an event recorded before each and one after the last on every
  // local GPU, behind one barrier; each operation's time is the max over the GPUs and ranks, us.
  std::vector<double> time_single_ops(const RunPlan& run, const PointPlan& p, int n) {
    for (auto& g : gpus_) {
      gpu::set_device(g->device);
      g->marks.reserve(n + 1);
    }
    align_ranks();
    for (int it = 0; it < n; ++it) {
      for (auto& g : gpus_) g->marks.record(it, g->stream);
      launch_once(run, p, it);
    }
    for (auto& g : gpus_) g->marks.record(n, g->stream);
    std::vector<double> worst(static_cast<std::size_t>(n), 0.0);
    for (auto& g : gpus_) {
      const auto us = g->marks.elapsed_us(n);
      for (std::size_t i = 0; i < us.size(); ++i) worst[i] = std::max(worst[i], us[i]);
    }
    coll_.check_errors();
    return max_over_ranks(boot_, std::move(worst));
  }

  void capture_graphs(const RunPlan& run, const PointPlan& p) {
    for (auto& g : gpus_) gpu::Graph::begin_capture(g->stream);
    for (int it = 0; it < ops_per_batch_; ++it) launch_once(run, p, it);
    for (auto& g : gpus_) g->graph = gpu::Graph::end_capture(g->stream);
    for (auto& g : gpus_) g->graph.instantiate();
  }

  // The max over ranks of `local` and process 0's `clock`: the same pair on every rank, so
  // that every rank takes the same sampling decision.
  std::pair<double, double> shared(double local, double clock) {
    const auto all = boot_.allgather(fmt::format("{} {}", local, clock));
    double worst = 0;
    double clock0 = 0;
    for (std::size_t i = 0; i < all.size(); ++i) {
      std::istringstream in(all[i]);
      double t = 0;
      double c = 0;
      in >> t >> c;
      worst = std::max(worst, t);
      if (i == 0) clock0 = c;
    }
    return {worst, clock0};
  }

  // Untimed chunks of operations, each synchronized and timed on the host, until the warm-up
  // is satisfied (bench/sampler.hpp), which then gives the per-operation time.
  WarmupPlanner warm_up(const RunPlan& run, const PointPlan& p) {
    WarmupPlanner warmup(plan_.settings.sampling);
    for (int chunk = warmup.next_chunk(); chunk > 0; chunk = warmup.next_chunk()) {
      const auto t0 = Clock::now();
      for (int i = 0; i < chunk; ++i) launch_once(run, p, warmup.ops() + i);
      synchronize();
      warmup.add(chunk, shared(seconds_since(t0), 0).first);
    }
    synchronize();
    return warmup;
  }

  static double seconds_since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
  }

  Point run_point(const RunPlan& run, const PointPlan& p) {
    const auto& spec = collective(run.collective);
    const auto elem = dtype_info(run.dtype).size;
    const auto& s = plan_.settings.sampling;
    Point point;
    point.bytes = p.bytes;
    point.count = p.counts.param;  // nccl-tests' count column: NCCL's count argument
    point.in_place = p.in_place;
    if (plan_.settings.check) point.wrong = verify_point(run, p);

    point_steps_ = rotation_steps(p, elem, needs_, s.iters > 0 ? s.iters : s.max_ops_per_batch);
    const WarmupPlanner warmup = warm_up(run, p);
    ops_per_batch_ = ops_per_batch(s, warmup.per_op_s());
    point_steps_ = rotation_steps(p, elem, needs_, ops_per_batch_);
    point.iters_per_batch = ops_per_batch_;
    if (s.graph_launches > 0) capture_graphs(run, p);

    const double batch_s = warmup.per_op_s() * ops_per_batch_ * std::max(1, s.graph_launches);
    const BatchSampler sampler = sample(run, p, batch_s);
    point.time_us = sampler.stats();
    point.sampling = sampler.summary(warmup.ops(), warmup.seconds());
    const TailPlan tail = plan_tail(s, warmup.per_op_s(), ops_per_batch_);
    if (tail.from_batches) point.iterations = summarize_iterations("batches", sampler.samples());
    if (tail.events > 0)
      point.iterations = summarize_iterations("events", time_single_ops(run, p, tail.events));
    point.algbw_gbps = gb_per_s(static_cast<double>(p.bytes), point.time_us.median);
    point.busbw_gbps = point.algbw_gbps * spec.bus_factor(plan_.nranks());
    for (auto& g : gpus_) g->graph = gpu::Graph();
    return point;
  }

  const Plan& plan_;
  Collectives& coll_;
  Bootstrap& boot_;
  ProgressSink& sink_;
  const BufferNeeds needs_;
  std::size_t point_steps_ = 1;  // buffer offsets the current point's iterations cycle through
  int ops_per_batch_ = 1;        // the current point's operations per timed batch
  std::vector<std::unique_ptr<LocalGpu>> gpus_;
};

}  // namespace

void check_free_memory(const Plan& plan, const LocalAssignment& local) {
  const auto needs = buffer_needs(plan);
  const auto total = needs.total_with_nccl();
  for (const int dev : local.devices) {
    gpu::set_device(dev);
    auto mem = gpu::mem_info();
    // The workers of a command that just ended may still be giving their memory back
    // (launch/exiting_workers.hpp): give them a moment before calling the memory taken.
    for (int wait = 0; mem.free < total && total <= mem.total && wait < 20; ++wait) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      mem = gpu::mem_info();
    }
    // More than the GPU has in all is a wrong size (usage); more than is free now, a GPU
    // that others are using (environment), as a failed allocation would be.
    if (mem.free < total)
      throw Error(
          total > mem.total ? ExitCode::usage : ExitCode::environment,
          fmt::format("the largest point needs {} on GPU {} (send {} + receive {} + {} for "
                      "NCCL) but only {} of {} is free; lower -e/--maxbytes or free the GPU",
                      format_bytes(total), dev, format_bytes(needs.send), format_bytes(needs.recv),
                      format_bytes(kNcclReserveBytes), format_bytes(mem.free), format_bytes(mem.total)));
  }
}

void run_collective_plan(const Plan& plan, const LocalAssignment& local, Collectives& collectives,
                         Bootstrap& bootstrap, ProgressSink& sink, const std::function<void()>& ready) {
  // On failure the driver is leaked on purpose: freeing GPU buffers waits for kernels that may
  // never finish (a peer died mid-collective), and the worker must report the error first.
  auto driver = std::make_unique<Driver>(plan, local, collectives, bootstrap, sink);
  try {
    if (ready) ready();
    driver->run_all();
  } catch (...) {
    driver.release();  // NOLINT(bugprone-unused-return-value): deliberate leak, see above
    throw;
  }
}

}  // namespace fb
