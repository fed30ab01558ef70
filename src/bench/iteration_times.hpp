#pragma once
// Single operations' times at a point (the tail): the batches' medians hide a straggling GPU or a
// noisy neighbour, whose cost shows only operation by operation. After its batches a point times
// single operations back to back with an event recorded between consecutive ones on every GPU
// (nccl-tests -I's method); where a timed batch is one operation already, its batches are the single
// operations and nothing more is run.
#include <memory>
#include <vector>

#include "bench/run_settings.hpp"
#include "comm/bootstrap.hpp"
#include "gpu/runtime.hpp"
#include "model/result.hpp"

namespace fb {

// Where a point's single-operation times come from, and how many operations to time one by one.
struct TailPlan {
  bool from_batches = false;  // the timed batches are single operations
  int events = 0;             // operations to time one by one after the batches (0: none)
};

// -G: none (a graph times its whole batch); --tail-iters N: N; by time (-1): the batches where
// each is one operation, else as many as tail_time_s holds at `op_s`, 1..max_tail_iters.
TailPlan plan_tail(const Sampling& sampling, double op_s, int ops_per_batch);

// The summary of `samples_us` (each the max over ranks): p50 = sorted[n/2], p99 the nearest rank,
// max; the samples kept in the order taken. `source`: "events" or "batches".
IterationTimes summarize_iterations(const char* source, std::vector<double> samples_us);

// Element by element, the max of `mine` over every rank of `boot` (each rank passes as many).
std::vector<double> max_over_ranks(Bootstrap& boot, std::vector<double> mine);

// n + 1 events on one GPU, recorded around n operations queued back to back.
class IterationMarks {
 public:
  // Events 0..count-1 exist afterwards (created on the current device when missing).
  void reserve(int count);
  void record(int i, const gpu::Stream& stream) const {
    events_.at(static_cast<std::size_t>(i))->record(stream);
  }
  // The n operations' times, us: between marks i and i+1 (waits for mark n).
  [[nodiscard]] std::vector<double> elapsed_us(int n) const;

 private:
  std::vector<std::unique_ptr<gpu::Event>> events_;
};

}  // namespace fb
