#pragma once
// The lower bound of a numeric flag, said the same way for every flag.
#include <fmt/format.h>

#include <string_view>

#include "core/error.hpp"

namespace fb {

// A usage error naming `flag` when `value` is below `least`: "-n/--iters must be at least 1 (got 0)",
// or for a bound of 0, "-r/--root must be >= 0 (got -1)".
inline void require_at_least(std::string_view flag, long long value, long long least) {
  if (value >= least) return;
  if (least == 0) FB_USAGE_ERROR(fmt::format("{} must be >= 0 (got {})", flag, value));
  FB_USAGE_ERROR(fmt::format("{} must be at least {} (got {})", flag, least, value));
}

}  // namespace fb
