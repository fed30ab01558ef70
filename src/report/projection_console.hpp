#pragma once
// The projection as the console prints it: the model and its sources, one table per phase
// (prefill, decode) with units, where adding GPUs stops paying, and every named assumption.
#include <string>

#include "model/projection.hpp"

namespace fb {

std::string projection_table(const Projection& p);

}  // namespace fb
