#include "bench/iteration_times.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace fb {

TailPlan plan_tail(const Sampling& sampling, double op_s, int ops_per_batch) {
  if (sampling.graph_launches > 0 || sampling.tail_iters == 0) return {};
  if (sampling.tail_iters > 0) return {false, sampling.tail_iters};
  if (ops_per_batch == 1) return {true, 0};
  // At least min_tail_iters, so that the p99 is not the max, while they take at most twice
  // tail_time_s (a batch sized by time holds more than one operation only below 1 ms each, so
  // there they always do); at least one.
  const double most = sampling.max_tail_iters;
  const double fit = op_s > 0 ? std::floor(sampling.tail_time_s / op_s) : most;
  const double fewest =
      sampling.min_tail_iters * op_s <= 2 * sampling.tail_time_s ? sampling.min_tail_iters : 1;
  return {false, static_cast<int>(std::clamp(fit, std::min(most, fewest), most))};
}

IterationTimes summarize_iterations(const char* source, std::vector<double> samples_us) {
  IterationTimes t;
  t.source = source;
  t.n = static_cast<int>(samples_us.size());
  if (samples_us.empty()) return t;
  auto sorted = samples_us;
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  // Nearest rank: the smallest value with at least 99% of the samples at or below it.
  const std::size_t p99_rank = (n * 99 + 99) / 100;
  t.p50_us = sorted[n / 2];
  t.p99_us = sorted[std::min(n, p99_rank) - 1];
  t.max_us = sorted.back();
  t.samples_us = std::move(samples_us);
  return t;
}

std::vector<double> max_over_ranks(Bootstrap& boot, std::vector<double> mine) {
  for (const auto& theirs : boot.allgather(fmt::format("{}", fmt::join(mine, " ")))) {
    std::istringstream in(theirs);
    for (auto& v : mine) {
      double t = 0;
      in >> t;
      v = std::max(v, t);
    }
  }
  return mine;
}

void IterationMarks::reserve(int count) {
  while (static_cast<int>(events_.size()) < count) events_.push_back(std::make_unique<gpu::Event>());
}

std::vector<double> IterationMarks::elapsed_us(int n) const {
  events_.at(static_cast<std::size_t>(n))->wait_yielding();
  std::vector<double> us(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < us.size(); ++i)
    us[i] = gpu::Event::elapsed_ms(*events_[i], *events_[i + 1]) * 1e3;
  return us;
}

}  // namespace fb
