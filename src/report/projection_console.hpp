#pragma once
// The projection as the console prints it: the model and its sources, one table per phase
// (prefill, decode) with units and each all_reduce's basis marked, the plain answers with their
// rules, and every named assumption (report/projection_table.hpp: the same table as every view).
#include <string>

#include "model/projection.hpp"

namespace fb {

std::string projection_table(const Projection& p);

}  // namespace fb
