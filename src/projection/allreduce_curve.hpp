#pragma once
// The measured all_reduce curve a projection reads its communication times from: one per GPU
// count found in a result document, looked up by interpolation in log-log space between measured
// sizes, never extrapolated past them (docs/projection.md, "Communication"). Its tail is the points'
// single-operation p99 (docs/metrics.md, "The tail") where they have one, and nowhere else.
#include <cstdint>
#include <map>
#include <vector>

#include "model/projection.hpp"
#include "model/result.hpp"

namespace fb {

struct CurvePoint {
  std::uint64_t bytes = 0;
  double median_us = 0;
  double tail_p99_us = 0;  // the single operations' p99; 0: no tail measured at this size
};

struct AllReduceTime {
  double median_us = 0;
  double tail_p99_us = 0;  // 0: not measured
  [[nodiscard]] bool tail_measured() const { return tail_p99_us > 0; }
};

class AllReduceCurve {
 public:
  // Points in any order; sizes measured twice keep the first. A usage error when fewer than one
  // point is given or a median is not positive.
  AllReduceCurve(CurveSource source, std::vector<CurvePoint> points);

  // The time at `bytes`: a measured point's own, or the straight line between its two measured
  // neighbours on log(bytes)-log(time) axes; the tail the same way between the points that have one,
  // and 0 outside them. A usage error saying what to measure when `bytes` lies outside the measured sizes.
  [[nodiscard]] AllReduceTime at(std::uint64_t bytes) const;

  [[nodiscard]] const CurveSource& source() const { return source_; }
  [[nodiscard]] const std::vector<CurvePoint>& points() const { return points_; }

 private:
  [[nodiscard]] double tail_at(std::uint64_t bytes) const;

  CurveSource source_;
  std::vector<CurvePoint> points_;  // ascending bytes
  std::vector<CurvePoint> tails_;   // the points with a tail, ascending bytes
};

// Every all_reduce curve of a result (collective and scale runs that completed), one per GPU
// count: where a count has several, the one in CUDA graph mode, then the one with most points.
std::map<int, AllReduceCurve> allreduce_curves(const Result& r);

// nccl-tests' all_reduce bus factor 2(n-1)/n: the busbw a time at n GPUs corresponds to.
double allreduce_bus_factor(int gpus);

}  // namespace fb
