#pragma once
// Decides how many timed batches a point gets: at least `min_batches`, then until the median
// is known to +-target_ci (95% CI) or the point's time budget is spent. Pure logic: the
// driver feeds it the per-operation time of each batch (already the max over ranks).
#include <vector>

#include "bench/plan.hpp"
#include "core/stats.hpp"

namespace fb {

class BatchSampler {
 public:
  explicit BatchSampler(const Sampling& sampling) : sampling_(sampling) {}

  void add(double per_op_us) { samples_.push_back(per_op_us); }

  // `elapsed_s`: wall time spent on this point's batches so far (rank 0's clock, shared so
  // that every rank takes the same decision).
  [[nodiscard]] bool done(double elapsed_s) const;

  [[nodiscard]] TimeStats stats() const { return summarize(samples_); }

 private:
  Sampling sampling_;
  std::vector<double> samples_;
};

}  // namespace fb
