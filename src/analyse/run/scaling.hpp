#pragma once
// Scale runs: SCALE_BUSBW_DROP, busbw falling as GPUs are added (warning).
#include <vector>

#include "model/result.hpp"

namespace fb {

std::vector<Finding> check_scaling(const Result& r);

}  // namespace fb
