#pragma once
// NCCL's transports between the run's GPUs:
//   NCCL_FALLBACK  NCCL moved data through host memory (SHM) or the network (NET) although every
//                  pair of the run has peer access or a fabric (error; info when some pairs have none)
#include <vector>

#include "model/result.hpp"

namespace fb {

std::vector<Finding> check_transports(const Result& r);

}  // namespace fb
