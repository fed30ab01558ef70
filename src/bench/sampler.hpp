#pragma once
// How long a point is sampled, as pure functions of the timing stream the driver feeds in
// (every value already the max over ranks and rank 0's clock, so every rank decides alike):
// - WarmupPlanner: untimed operations until NCCL's first-use costs are paid (by time, or
//   exactly -w operations), and the per-operation time that sizes the batches;
// - ops_per_batch: operations per timed batch (about batch_target_s of GPU time, or -n);
// - BatchSampler: timed batches until the median is known to +-target_ci, the point's budget
//   is spent or max_batches is reached. It never claims an interval it did not reach.
#include <array>
#include <string>
#include <vector>

#include "bench/plan.hpp"
#include "core/enum_names.hpp"
#include "core/stats.hpp"
#include "model/result.hpp"

namespace fb {

class WarmupPlanner {
 public:
  explicit WarmupPlanner(const Sampling& sampling) : sampling_(sampling) {}

  // Operations to launch (then synchronize) next; 0 once the warm-up is over.
  [[nodiscard]] int next_chunk() const;
  // The chunk of `ops` operations just run took `seconds` of wall time (max over ranks).
  void add(int ops, double seconds);

  [[nodiscard]] int ops() const { return ops_; }
  [[nodiscard]] double seconds() const { return seconds_; }
  // Per-operation time that sizes the batches, seconds: the fastest chunk after the first (which
  // pays NCCL's first use). Not the latest: one stall in it (a host preemption) sized a point's
  // batches at 5 operations of 8 B on 2 x H200, whose per-batch cost then read 10.2 us against
  // 6-7 us.
  [[nodiscard]] double per_op_s() const { return chunks_ > 1 ? best_per_op_s_ : last_per_op_s_; }

 private:
  [[nodiscard]] int next_timed_chunk() const;
  [[nodiscard]] bool full_rate() const;
  Sampling sampling_;
  int ops_ = 0;
  int chunks_ = 0;
  int last_chunk_ops_ = 0;
  double last_chunk_s_ = 0;
  double seconds_ = 0;
  double last_per_op_s_ = 0;
  double best_per_op_s_ = 0;   // over the chunks after the first
  double steady_chunk_s_ = 0;  // the second chunk: one steady operation and its synchronize
};

// -n when given; else enough operations for batch_target_s at `per_op_s`, 1..max_ops_per_batch.
int ops_per_batch(const Sampling& sampling, double per_op_s);

// Timed batches shorter than this are queued one ahead of the one being read, so the fabric
// does not idle between them (bench/collective_driver.cpp); the last one queued is not counted.
inline constexpr double kLookAheadMaxS = 0.05;

// Seconds one point costs when one operation takes `op_s`: the verification call, the
// warm-up, the timed batches (bounded by their budget, plus the one batch it may be overrun
// by), the batch queued ahead and the tail's single operations (bench/iteration_times.hpp). The
// doctor's budget and the progress estimates use it.
// `expected_batches`: how many batches a point takes before its interval is met, where seen
// (the doctor's first stage); 0: the sampler's usual count on a quiet fabric.
double point_seconds(const Sampling& sampling, double op_s, bool verified, double expected_batches = 0);

// Timed batches to expect of a point before its interval is met, for the estimates made before
// it runs: `measured` (the mean a stage saw, or 0) for an operation bound by its bytes; for one
// bound by the launch rate (`moved_s`, the bytes' share of its time, below `floor_s`, the
// shortest operation) at least 80: the host's jitter has to average out (8 B - 4 MiB points on
// one H200 took 11-200 batches, mean 130; an 8 B - 1 GiB sweep of two collectives 4.6, 5.8 and
// 9.1 s in three calls, which 80 prices at 5.9 s), while larger ones took 6-11.
double prior_batches(double moved_s, double floor_s, double measured);

// Why a point stopped taking batches (the result's `sampling.stop`).
enum class SamplingStop { none, target, budget, max_batches, count };
template <>
struct EnumNames<SamplingStop> {
  static constexpr std::string_view what = "sampling stop";
  static constexpr std::array<EnumName<SamplingStop>, 5> table{{{SamplingStop::none, ""},
                                                                {SamplingStop::target, "target"},
                                                                {SamplingStop::budget, "budget"},
                                                                {SamplingStop::max_batches, "max_batches"},
                                                                {SamplingStop::count, "count"}}};
};

class BatchSampler {
 public:
  explicit BatchSampler(const Sampling& sampling) : sampling_(sampling) {}

  void add(double per_op_us) { samples_.push_back(per_op_us); }

  // `elapsed_s`: wall time spent on this point's batches so far (rank 0's clock, shared so
  // that every rank takes the same decision). Stops before a batch that would end past the
  // budget (predicted from the batches so far), so a point overruns its budget by at most
  // the one batch whose time was mispredicted; at least one batch is always taken.
  [[nodiscard]] bool done(double elapsed_s);

  [[nodiscard]] SamplingStop stop() const { return stop_; }
  [[nodiscard]] TimeStats stats() const { return summarize(samples_); }
  [[nodiscard]] const std::vector<double>& samples() const { return samples_; }  // per-operation, us
  // What the point reached: the interval of its samples, whether it met the target, why it
  // stopped, its first and last batch (to show warm-up was long enough).
  [[nodiscard]] PointSampling summary(int warmup_ops, double warmup_s) const;

 private:
  Sampling sampling_;
  std::vector<double> samples_;
  SamplingStop stop_ = SamplingStop::none;
};

}  // namespace fb
