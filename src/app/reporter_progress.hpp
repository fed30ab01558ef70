#pragma once
// The engine's document callbacks (engine/commands/command_outcome.hpp) bound to a command's reporters.
#include "engine/commands/command_outcome.hpp"
#include "report/reporter.hpp"

namespace fb {

inline ResultProgress reporter_progress(Reporter& reporters) {
  return {.begun = [&reporters](const Result& r) { reporters.begin(r); },
          .point = [&reporters](const Result& r, std::size_t run,
                                std::size_t point) { reporters.point(r, run, point); },
          .ended = [&reporters](const Result& r) { reporters.end(r); }};
}

}  // namespace fb
