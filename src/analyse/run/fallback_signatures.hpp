#pragma once
// A figure that only a fallback explains: below what the GPUs' slowest path without a fault gives, and
// at or below what a fallback carries (docs/verdicts.md, "Fallback signatures").
//   SIGNATURE_HOST_STAGED  inside a host (or an NVLink domain): at or below what staging through host
//                          memory over PCIe carries, where the GPUs have a fabric or peer access (or a
//                          setting turned it off): NCCL moved the data through host memory (error)
//   SIGNATURE_SOCKETS      across hosts: NCCL on TCP sockets (its log, the environment, no RDMA port up)
//                          and a figure below what the slowest datacenter network of the GPU class
//                          carries (error)
// Each names its evidence and what causes it; a setting in the run's environment that explains it is
// named as the cause.
#include <vector>

#include "model/result.hpp"

namespace fb {

std::vector<Finding> check_fallback_signatures(const Result& r);

}  // namespace fb
