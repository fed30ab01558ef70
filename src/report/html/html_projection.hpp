#pragma once
// The HTML report's projection section: speedup vs TP degree (prefill, decode, the ideal) and
// the share of each layer's time spent in communication.
#include <string>

#include "model/result.hpp"

namespace fb {

// "" when the result holds no projection.
std::string projection_charts(const Result& r);

}  // namespace fb
