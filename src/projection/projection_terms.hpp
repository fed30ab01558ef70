#pragma once
// The named assumptions of the tensor-parallel model, with the value each took for a request and
// its projection (whether the tail was measured, what bounded the TPs without a curve): written
// into the result and every view so that no number stands without its premises.
#include <vector>

#include "model/projection.hpp"

namespace fb {

struct ProjectionRequest;

std::vector<ProjectionTerm> projection_terms(const ProjectionRequest& request, const Projection& projection);

}  // namespace fb
