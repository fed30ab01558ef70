#include "report/progress_line.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "bench/sampler.hpp"
#include "core/units.hpp"

namespace fb {

double estimate_left_s(const Sampling& sampling, bool verified, std::uint64_t last_bytes, double last_op_s,
                       const std::vector<std::uint64_t>& left_bytes, double overhead_s) {
  // Seconds per byte at the latest point's bandwidth: the remaining points of a sweep are
  // mostly larger, and reach at least that bandwidth, so this errs long.
  const double s_per_byte = last_bytes > 0 ? last_op_s / static_cast<double>(last_bytes) : 0;
  double total = 0;
  for (const auto b : left_bytes) {
    const double op_s = std::max(last_op_s > 0 ? 1e-6 : 0.0, s_per_byte * static_cast<double>(b));
    total += point_seconds(sampling, op_s, verified) + overhead_s;
  }
  return total;
}

ProgressLine::ProgressLine(std::FILE* out, std::vector<std::uint64_t> planned, Sampling sampling,
                           bool verified, double every_s)
    : out_(out), planned_(std::move(planned)), sampling_(sampling), verified_(verified), every_s_(every_s) {}

double ProgressLine::since(Clock::time_point t) const {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

void ProgressLine::point(const Result& result, std::size_t run, std::size_t point) {
  const Point& p = result.runs.at(run).points.at(point);
  const double op_s = p.time_us.median * 1e-6;
  if (done_ == 0)
    first_point_ = Clock::now();  // the gap before it is start-up, not a point's cost
  else
    modelled_s_ += point_seconds(sampling_, op_s, verified_);
  ++done_;
  if (done_ >= planned_.size() || since(last_line_) < every_s_) return;
  last_line_ = Clock::now();
  const double measured_s = since(first_point_);
  const double overhead_s =
      done_ > 1 ? std::max(0.0, (measured_s - modelled_s_) / static_cast<double>(done_ - 1)) : 0;
  const std::vector<std::uint64_t> left(planned_.begin() + static_cast<std::ptrdiff_t>(done_),
                                        planned_.end());
  const double left_s = estimate_left_s(sampling_, verified_, p.bytes, op_s, left, overhead_s);
  fmt::print(out_, "fabricbench: {} of {} points in {:.1f} s ({} {} done), about {:.0f} s left\n", done_,
             planned_.size(), since(start_), result.runs.at(run).collective, format_bytes(p.bytes),
             std::max(1.0, left_s));
  std::fflush(out_);
}

}  // namespace fb
