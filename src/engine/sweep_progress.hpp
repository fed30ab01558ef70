#pragma once
// Where a sweep of whole runs stands (algos' configurations, scale's GPU groups), for the line
// each prints on stderr as the next one starts: "3 of 11, 24 s so far, about 64 s left". Every
// run starts its own workers, so the mean time of those done prices the rest better than a
// per-point model would; forced LL/LL128 runs with fewer sizes make it err on the long side.
#include <chrono>
#include <cstddef>
#include <string>

namespace fb {

// `index`: the 0-based run about to start, of `total`; `elapsed_s`: since the first began.
std::string sweep_progress_text(std::size_t index, std::size_t total, double elapsed_s);

// The same, timing itself from construction.
class SweepProgress {
 public:
  explicit SweepProgress(std::size_t total) : total_(total) {}
  [[nodiscard]] std::string at(std::size_t index) const;

 private:
  std::size_t total_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace fb
