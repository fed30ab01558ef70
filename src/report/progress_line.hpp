#pragma once
// Progress of a long sweep on stderr: points done of planned, time so far and an estimate of
// what is left, at most one line every few seconds (nothing for a sweep that ends quickly).
// The estimate prices each remaining point with the sampler's own cost model
// (bench/sampler.hpp, point_seconds) at the bandwidth the latest point reached, plus the
// per-point overhead seen so far.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/plan.hpp"
#include "report/reporter.hpp"

namespace fb {

// Seconds the points of `left_bytes` should take after a point that moved `bytes` in
// `op_s` per operation, with `overhead_s` per point on top of the sampler's model.
double estimate_left_s(const Sampling& sampling, bool verified, std::uint64_t last_bytes, double last_op_s,
                       const std::vector<std::uint64_t>& left_bytes, double overhead_s);

class ProgressLine final : public Reporter {
 public:
  // `planned`: every point's bytes, in the order the plan measures them.
  ProgressLine(std::FILE* out, std::vector<std::uint64_t> planned, Sampling sampling, bool verified,
               double every_s = 3.0);
  void point(const Result& result, std::size_t run, std::size_t point) override;

 private:
  using Clock = std::chrono::steady_clock;
  [[nodiscard]] double since(Clock::time_point t) const;
  std::FILE* out_;
  std::vector<std::uint64_t> planned_;
  Sampling sampling_;
  bool verified_;
  double every_s_;
  std::size_t done_ = 0;
  Clock::time_point start_ = Clock::now();
  Clock::time_point first_point_;
  Clock::time_point last_line_ = Clock::now();
  double modelled_s_ = 0;  // the model's price of the points after the first
};

}  // namespace fb
