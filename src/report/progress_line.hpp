#pragma once
// Progress of a long sweep, as progress events (app/ renders them): points done of planned, time so far and
// an estimate of what is left, at most one line every few seconds (nothing for a sweep that ends quickly).
// The estimate prices each remaining point with the sampler's own cost model
// (bench/sampler.hpp, point_seconds, prior_batches) at the best bandwidth and the shortest
// operation seen so far, plus the per-point overhead seen so far. (At the latest point's
// bandwidth, an 8 B point extrapolated to 1 GiB: '35 of 56 points, about 220 s left' for a
// sweep that took 4.6 s.)
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "bench/plan.hpp"
#include "core/events.hpp"
#include "report/reporter.hpp"

namespace fb {

// What a sweep's points have shown: the most bytes per second of an operation and the shortest
// operation (the launch floor).
struct SeenSpeed {
  double bytes_per_s = 0;
  double floor_op_s = 0;
  void add(std::uint64_t bytes, double op_s);
};

// Seconds the points of `left_bytes` should take at `seen`, with `overhead_s` per point on top of
// the sampler's model: an operation of b bytes takes max(floor, b / bandwidth).
double estimate_left_s(const Sampling& sampling, bool verified, const SeenSpeed& seen,
                       const std::vector<std::uint64_t>& left_bytes, double overhead_s);

class ProgressLine final : public Reporter {
 public:
  // `planned`: every point's bytes, in the order the plan measures them.
  ProgressLine(EventSink& events, std::vector<std::uint64_t> planned, Sampling sampling, bool verified,
               double every_s = 3.0);
  void point(const Result& result, std::size_t run, std::size_t point) override;

 private:
  using Clock = std::chrono::steady_clock;
  [[nodiscard]] double since(Clock::time_point t) const;
  EventSink& events_;
  std::vector<std::uint64_t> planned_;
  Sampling sampling_;
  bool verified_;
  double every_s_;
  std::size_t done_ = 0;
  Clock::time_point start_ = Clock::now();
  Clock::time_point first_point_;
  Clock::time_point last_line_ = Clock::now();
  double modelled_s_ = 0;  // the model's price of the points after the first
  SeenSpeed seen_;
};

}  // namespace fb
