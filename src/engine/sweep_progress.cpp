#include "engine/sweep_progress.hpp"

#include <fmt/format.h>

namespace fb {

std::string sweep_progress_text(std::size_t index, std::size_t total, double elapsed_s) {
  if (index == 0) return fmt::format("1 of {}", total);
  const double left_s = elapsed_s / static_cast<double>(index) * static_cast<double>(total - index);
  return fmt::format("{} of {}, {:.0f} s so far, about {:.0f} s left", index + 1, total, elapsed_s, left_s);
}

std::string SweepProgress::at(std::size_t index) const {
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  return sweep_progress_text(index, total_, elapsed);
}

}  // namespace fb
