#pragma once
// `run --verbose`: where the time from launch to the first point went, one line per step.
#include <cstdio>
#include <vector>

#include "model/result.hpp"

namespace fb {

void print_startup(std::FILE* out, const std::vector<StartupPhase>& phases);

}  // namespace fb
