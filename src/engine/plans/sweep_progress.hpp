#pragma once
// Where a sweep of whole runs stands (algos' configurations, scale's GPU groups), said as the next
// one starts: "3 of 11, 24 s so far, about 64 s left". Every run starts its own workers, so the
// mean time of those done prices the rest better than a per-point model would; forced LL/LL128
// runs with fewer sizes make it err on the long side.
#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "core/events.hpp"

namespace fb {

// `index`: the 0-based run about to start, of `total`; `elapsed_s`: since the first began.
SweepPosition sweep_position(std::size_t index, std::size_t total, double elapsed_s);
std::string sweep_progress_text(const SweepPosition& position);

// Announces each run of a sweep to `events` as a progress event, timing itself from construction
// (or by `seconds`, the time since the sweep began, for tests).
class SweepProgress {
 public:
  using Seconds = std::function<double()>;
  SweepProgress(std::size_t total, EventSink& events, Seconds seconds = {});
  // Run `index` starts: "WHAT (DETAIL; 3 of 11, 24 s so far, about 64 s left)", DETAIL and its
  // "; " left out when empty.
  void announce(std::size_t index, std::string_view what, std::string_view detail = {});

 private:
  std::size_t total_;
  EventSink& events_;
  Seconds seconds_;
};

}  // namespace fb
