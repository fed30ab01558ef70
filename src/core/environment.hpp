#pragma once
// What the process environment says about a run: NCCL_*/RCCL_*/CUDA_*/HIP_* variables,
// the host name, wall-clock timestamps.
#include <map>
#include <string>

namespace fb {

// Every NCCL_*, RCCL_*, CUDA_*, HIP_*, ROCR_* and HSA_* variable of the current environment.
std::map<std::string, std::string> capture_comm_env();

std::string host_name();
// The host a rank of a job is on, as NCCL counts hosts: NCCL_HOSTID where it is set (NCCL then takes
// it for the host's identity: containers that all say "localhost", several "hosts" on one machine),
// else host_name().
std::string job_host_name();

// Current UTC time as ISO 8601, e.g. "2026-11-29T18:49:21Z".
std::string now_iso8601();

}  // namespace fb
