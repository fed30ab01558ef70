#pragma once
// Verdicts over a whole result document (doctor, `report --analyse`): every rule a small
// function returning findings with a stable code, evidence, what was expected and a hint.
// docs/verdicts.md lists every rule, what it reads, its threshold and where that comes from.
// Every rule judges the GPUs, pairs and NUMA nodes of the run (analyse/run_scope.hpp).
//   run:        RUN_*, GPU_LOST, DATA_WRONG, RESULT_* (analyse/run_health.hpp)
//   topology:   TOPO_* (topo/topology_checks.hpp), raised by measurements (p2p_expectations.hpp)
//   p2p:        P2P_* peers (p2p_analysis.hpp), ceilings and expectations (p2p_expectations.hpp)
//   collectives: BUSBW_*, NO_EXPECTATION (collective_verdicts.hpp)
//   environment: ENV_* (environment_rules.hpp)   host: HOST_* (host_checks.hpp)
//   hosts of a job: HOST_MISMATCH_* (host_consistency.hpp)   network: NIC_* (nic_checks.hpp)
//   NCCL_FALLBACK        NCCL moved data through host memory (SHM) or the network (NET) although
//                        every pair of the run has peer access or a fabric (error; info when some
//                        pairs have none)
//   SCALE_BUSBW_DROP     busbw falling as GPUs are added (scale runs)
//   ALGO_FORCED_FASTER   a forced NCCL algorithm/protocol beating NCCL's choice (algos runs)
//   ONE_GPU              a run on one GPU of one host: no interconnect to measure (info); never when the
//                        GPUs sit on 2 or more hosts (analyse/gpu_names.hpp)
#include <vector>

#include "analyse/environment_rules.hpp"
#include "model/result.hpp"

namespace fb {

// The version of these rules, their thresholds and the expectation table, recorded with the
// findings they write (the document's `rules_version`). Change it with any of them: `report` shows
// a document's saved findings of another version apart from the ones it computes.
inline constexpr const char* kRulesVersion = "fabricbench.rules/2026-12-04";

// Pairs or host links slower than the median of their peers by more than this: the tolerance of
// analyse/expectations.cpp (our pairs agree within 1%; quick samples spread up to 19%).
inline constexpr double kPeerMargin = 0.10;

std::vector<Finding> check_transports(const Result& r);
std::vector<Finding> check_scaling(const Result& r);
std::vector<Finding> check_algorithms(const Result& r);
std::vector<Finding> check_one_gpu(const Result& r);

// Every rule (the host rules last), the most severe findings first.
std::vector<Finding> analyse_result(const Result& r);
// `r` judged by every rule: analyse_result into r.findings, the verdict contract over them into
// r.verdict (analyse/verdict_contract.hpp), r.rules_version set, and each host section of a job
// judged on its own (analyse/hosts/host_verdicts.hpp).
void judge_result(Result& r);

// The ring's ceiling for SM-issued traffic over `gpus`: the weakest pair's (0: unknown).
double ring_sm_ceiling(const Topology& t, const std::vector<int>& gpus);

}  // namespace fb
