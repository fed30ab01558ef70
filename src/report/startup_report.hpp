#pragma once
// `run --verbose`: where the time from launch to the first point went, one line per step
// (said as detail events, after a heading and the columns' names).
#include <string>
#include <vector>

#include "model/result.hpp"

namespace fb {

std::vector<std::string> startup_lines(const std::vector<StartupPhase>& phases);

}  // namespace fb
