#pragma once
// ONE_GPU: a run on one GPU of one host has no interconnect to measure (info); never when the GPUs
// sit on 2 or more hosts (analyse/scope/gpu_names.hpp).
#include <vector>

#include "model/result.hpp"

namespace fb {

std::vector<Finding> check_one_gpu(const Result& r);

}  // namespace fb
