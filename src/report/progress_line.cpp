#include "report/progress_line.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "bench/sampler.hpp"
#include "core/units.hpp"

namespace fb {

void SeenSpeed::add(std::uint64_t bytes, double op_s) {
  if (op_s <= 0) return;
  bytes_per_s = std::max(bytes_per_s, static_cast<double>(bytes) / op_s);
  floor_op_s = floor_op_s > 0 ? std::min(floor_op_s, op_s) : op_s;
}

double estimate_left_s(const Sampling& sampling, bool verified, const SeenSpeed& seen,
                       const std::vector<std::uint64_t>& left_bytes, double overhead_s) {
  double total = 0;
  for (const auto b : left_bytes) {
    const double moved_s = seen.bytes_per_s > 0 ? static_cast<double>(b) / seen.bytes_per_s : 0;
    const double op_s = std::max(seen.floor_op_s, moved_s);
    total += point_seconds(sampling, op_s, verified, prior_batches(moved_s, seen.floor_op_s, 0)) + overhead_s;
  }
  return total;
}

ProgressLine::ProgressLine(EventSink& events, std::vector<std::uint64_t> planned, Sampling sampling,
                           bool verified, double every_s)
    : events_(events),
      planned_(std::move(planned)),
      sampling_(sampling),
      verified_(verified),
      every_s_(every_s) {}

double ProgressLine::since(Clock::time_point t) const {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

void ProgressLine::point(const Result& result, std::size_t run, std::size_t point) {
  const Point& p = result.runs.at(run).points.at(point);
  const double op_s = p.time_us.median * 1e-6;
  seen_.add(p.bytes, op_s);
  if (done_ == 0)
    first_point_ = Clock::now();  // the gap before it is start-up, not a point's cost
  else
    modelled_s_ += point_seconds(sampling_, op_s, verified_, p.time_us.n);  // the batches it took
  ++done_;
  if (done_ >= planned_.size() || since(last_line_) < every_s_) return;
  last_line_ = Clock::now();
  const double measured_s = since(first_point_);
  const double overhead_s =
      done_ > 1 ? std::max(0.0, (measured_s - modelled_s_) / static_cast<double>(done_ - 1)) : 0;
  const std::vector<std::uint64_t> left(planned_.begin() + static_cast<std::ptrdiff_t>(done_),
                                        planned_.end());
  const double left_s = estimate_left_s(sampling_, verified_, seen_, left, overhead_s);
  Event event = make_event(EventKind::progress,
                           fmt::format("{} of {} points in {:.1f} s ({} {} done), about {:.0f} s left", done_,
                                       planned_.size(), since(start_), result.runs.at(run).collective,
                                       format_bytes(p.bytes), std::max(1.0, left_s)));
  event.sweep = SweepPosition{static_cast<int>(done_), static_cast<int>(planned_.size()), since(start_),
                              std::max(1.0, left_s)};
  events_.emit(event);
}

}  // namespace fb
