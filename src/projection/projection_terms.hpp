#pragma once
// The named assumptions of the tensor-parallel model, with the value each took for a request:
// written into the result and the console so that no number stands without its premises.
#include <vector>

#include "model/projection.hpp"

namespace fb {

struct ProjectionRequest;

std::vector<ProjectionTerm> projection_terms(const ProjectionRequest& request);

}  // namespace fb
