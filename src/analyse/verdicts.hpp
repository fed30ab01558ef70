#pragma once
// Verdicts over a whole result document (doctor, `report --analyse`): every rule a small
// function returning findings with a stable code, evidence, what was expected and a hint.
//   topology: TOPO_* (topo/topology_checks.hpp)      p2p: P2P_* (analyse/p2p_analysis.hpp)
//   environment: ENV_* (analyse/environment_rules.hpp)   host: HOST_* (analyse/host_checks.hpp)
//   NCCL_FALLBACK        NCCL moved data through host memory (SHM) or the network (NET)
//                        although the GPUs have peer access or a fabric
//   BUSBW_BELOW_CEILING  busbw at >= 256 MiB under 60% of the ring's SM ceiling
//   DATA_WRONG           a verified point with wrong elements
//   RESULT_NOISY         a point >= 1 MiB whose median is not known to +-5%
//   SCALE_BUSBW_DROP     busbw falling as GPUs are added (scale runs)
//   ALGO_FORCED_FASTER   a forced NCCL algorithm/protocol beating NCCL's choice (algos runs)
#include <vector>

#include "analyse/environment_rules.hpp"
#include "core/result.hpp"

namespace fb {

std::vector<Finding> check_transports(const Result& r);
std::vector<Finding> check_ceilings(const Result& r);
std::vector<Finding> check_data_and_noise(const Result& r);
std::vector<Finding> check_scaling(const Result& r);
std::vector<Finding> check_algorithms(const Result& r);

// All of the above plus the topology and p2p rules, in that order, then the host rules.
std::vector<Finding> analyse_result(const Result& r);

// The ring's ceiling for SM-issued traffic over `gpus`: the weakest pair's (0: unknown).
double ring_sm_ceiling(const Topology& t, const std::vector<int>& gpus);

}  // namespace fb
