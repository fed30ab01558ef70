#include "engine/plans/sweep_progress.hpp"

#include <fmt/format.h>

namespace fb {

SweepPosition sweep_position(std::size_t index, std::size_t total, double elapsed_s) {
  SweepPosition p{static_cast<int>(index), static_cast<int>(total), elapsed_s, std::nullopt};
  if (index > 0) p.left_s = elapsed_s / static_cast<double>(index) * static_cast<double>(total - index);
  return p;
}

std::string sweep_progress_text(const SweepPosition& p) {
  if (!p.left_s) return fmt::format("{} of {}", p.done + 1, p.total);  // nothing measured yet: no guess
  return fmt::format("{} of {}, {:.0f} s so far, about {:.0f} s left", p.done + 1, p.total, p.elapsed_s,
                     *p.left_s);
}

SweepProgress::SweepProgress(std::size_t total, EventSink& events, Seconds seconds)
    : total_(total), events_(events), seconds_(std::move(seconds)) {
  if (!seconds_) {
    const auto start = std::chrono::steady_clock::now();
    seconds_ = [start] {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
  }
}

void SweepProgress::announce(std::size_t index, std::string_view what, std::string_view detail) {
  const auto position = sweep_position(index, total_, seconds_());
  Event event = make_event(
      EventKind::progress,
      fmt::format("{} ({}{}{})", what, detail, detail.empty() ? "" : "; ", sweep_progress_text(position)));
  event.sweep = position;
  events_.emit(event);
}

}  // namespace fb
