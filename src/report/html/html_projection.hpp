#pragma once
// The HTML report's projection section: what it was projected from (model, rates, curves, bounds),
// per phase the table every view shows (report/projection_table.hpp: each all_reduce's basis marked,
// the p99 "not measured" where no tail was) with its plain answers, the speedup and communication
// share charts, and every assumption.
#include <string>

#include "model/result.hpp"

namespace fb {

// "" when the result holds no projection.
std::string projection_charts(const Result& r);

}  // namespace fb
