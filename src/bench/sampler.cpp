#include "bench/sampler.hpp"

#include <algorithm>
#include <cmath>

#include "bench/iteration_times.hpp"

namespace fb {
namespace {

// A warm-up by time ends after this many synchronized chunks even if its time is not reached
// (each chunk costs an allgather; the chunks aim at the remaining time, so 8 is plenty).
constexpr int kMaxWarmupChunks = 8;
// Chunk growth per step: bounds the overshoot when one chunk underestimates the op time.
constexpr int kMaxChunkGrowth = 16;
constexpr int kMaxChunkOps = 1 << 20;
// The chunk that sizes the batches lasts at least this many times the lone steady operation's.
constexpr double kSpreadOverSteady = 4;
// Batches a point typically needs to reach +-1% (6 bound a median; noise adds a few).
constexpr int kExpectedBatches = 12;

int ceil_ops(double seconds, double per_op_s, int cap) {
  if (!(per_op_s > 0)) return cap;
  const double n = std::ceil(seconds / per_op_s * (1 - 1e-12));  // 1 ms / 8 us is 125, not 126
  return n >= cap ? cap : std::max(1, static_cast<int>(n));
}

}  // namespace

int WarmupPlanner::next_chunk() const {
  if (sampling_.warmup >= 0) {  // -w N: exactly N operations in one chunk
    if (chunks_ > 0) return 0;
    if (sampling_.warmup > 0) return sampling_.warmup;
    return sampling_.iters > 0 ? 0 : 1;  // -w 0 with batches sized by time: one probe operation
  }
  return next_timed_chunk();
}

// Two single operations first: the first pays NCCL's first-use costs (connections, buffers
// of this algorithm and protocol), the second shows a steady operation and what a chunk's
// synchronize costs. Then chunks aimed at the rest of warmup_s, the last one at full launch
// rate (full_rate), which sizes the batches.
int WarmupPlanner::next_timed_chunk() const {
  const bool enough_ops = ops_ >= sampling_.min_warmup_ops;
  if (enough_ops && seconds_ >= sampling_.warmup_s && full_rate()) return 0;
  if (enough_ops && chunks_ >= kMaxWarmupChunks) return 0;
  if (chunks_ < 2) return 1;
  const double aim = std::max(
      {sampling_.warmup_s - seconds_, sampling_.batch_target_s, 2 * kSpreadOverSteady * steady_chunk_s_});
  const int cap = std::min(kMaxChunkOps, last_chunk_ops_ * kMaxChunkGrowth);
  return ceil_ops(aim, last_per_op_s_, cap);
}

// Whether the latest chunk shows the per-operation time at full launch rate: one operation
// fills a batch (the batches then hold one each, whatever a chunk's overhead), or several ran
// for half a batch and kSpreadOverSteady times the lone steady operation's chunk, so that the
// synchronize every chunk pays is spread thin. (Half a batch alone let a lone 8 B operation's
// chunk, nearly all synchronize, end the warm-up on 2 x H200 and size batches at 2-5
// operations, which then read 9-10 us against 6-7.)
bool WarmupPlanner::full_rate() const {
  if (last_per_op_s_ >= sampling_.batch_target_s) return true;
  return last_chunk_ops_ >= 2 &&
         last_chunk_s_ >= std::max(sampling_.batch_target_s / 2, kSpreadOverSteady * steady_chunk_s_);
}

void WarmupPlanner::add(int ops, double seconds) {
  ops_ += ops;
  ++chunks_;
  seconds_ += seconds;
  last_chunk_ops_ = ops;
  last_chunk_s_ = seconds;
  last_per_op_s_ = ops > 0 ? seconds / ops : 0;
  if (chunks_ == 2) steady_chunk_s_ = seconds;
  if (chunks_ > 1 && ops > 0 && (best_per_op_s_ <= 0 || last_per_op_s_ < best_per_op_s_))
    best_per_op_s_ = last_per_op_s_;
}

int ops_per_batch(const Sampling& sampling, double per_op_s) {
  if (sampling.iters > 0) return sampling.iters;
  return ceil_ops(sampling.batch_target_s, per_op_s, std::max(1, sampling.max_ops_per_batch));
}

double prior_batches(double moved_s, double floor_s, double measured) {
  constexpr double kLaunchBoundBatches = 80;
  return moved_s < floor_s ? std::max(measured, kLaunchBoundBatches) : measured;
}

double point_seconds(const Sampling& sampling, double op_s, bool verified, double expected_batches) {
  const double verify = verified ? op_s : 0;
  const double warmup = sampling.warmup >= 0 ? sampling.warmup * op_s
                                             : std::max(sampling.min_warmup_ops * op_s,
                                                        sampling.warmup_s + sampling.batch_target_s);
  const double batch = std::max(1e-9, ops_per_batch(sampling, op_s) * op_s);
  // The sampler starts no batch that would end past its budget, and always takes one.
  const int fit = std::max(1, static_cast<int>(std::floor(sampling.max_time_s / batch)));
  const int expected =
      expected_batches > 0 ? static_cast<int>(std::ceil(expected_batches)) : kExpectedBatches;
  const int batches = std::min({fit, std::max(expected, sampling.min_batches), sampling.max_batches});
  const double queued_ahead = batch < kLookAheadMaxS ? batch : 0;
  const double tail = plan_tail(sampling, op_s, ops_per_batch(sampling, op_s)).events * op_s;
  return verify + warmup + batches * batch + queued_ahead + tail;
}

bool BatchSampler::done(double elapsed_s) {
  const int n = static_cast<int>(samples_.size());
  if (n == 0) return false;
  if (sampling_.target_ci <= 0) {  // fixed count: exactly min_batches
    if (n >= sampling_.min_batches) stop_ = SamplingStop::count;
    return stop_ != SamplingStop::none;
  }
  auto sorted = samples_;
  std::sort(sorted.begin(), sorted.end());
  if (!sampling_.full_window && n >= sampling_.min_batches &&
      median_ci_relative(sorted) <= sampling_.target_ci)
    stop_ = SamplingStop::target;
  else if (n >= sampling_.max_batches)
    stop_ = SamplingStop::max_batches;
  else if (elapsed_s + elapsed_s / n > sampling_.max_time_s)  // the next batch would end past it
    stop_ = SamplingStop::budget;
  return stop_ != SamplingStop::none;
}

PointSampling BatchSampler::summary(int warmup_ops, double warmup_s) const {
  PointSampling s;
  s.warmup_ops = warmup_ops;
  s.warmup_ms = warmup_s * 1e3;
  s.target_ci = sampling_.target_ci;
  const double ci = stats().median_ci;
  s.ci_met = sampling_.target_ci > 0 && std::isfinite(ci) && ci <= sampling_.target_ci;
  s.stop = to_string(stop_);
  if (!samples_.empty()) {
    s.first_batch_us = samples_.front();
    s.last_batch_us = samples_.back();
  }
  return s;
}

}  // namespace fb
