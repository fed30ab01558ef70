#pragma once
// NCCL settings in the run's environment that change what NCCL does, as data: each variable
// (or prefix), what it changes, and the context that sets its severity. NCCL_DEBUG and the
// like only change what NCCL says and are not listed.
//   ENV_NCCL_OVERRIDE  warning: settings that change this run's algorithms, protocols, channels,
//                      transports or NCCL's view of the machine; info: settings with no effect
//                      here (network settings on one node, NVLS off, SHM off where every pair
//                      has peer access, P2P settings on one GPU). A disabled transport the run
//                      then fell back from is named as the cause of the NCCL_FALLBACK finding.
#include <cstddef>
#include <string_view>
#include <vector>

#include "model/result.hpp"

namespace fb {

// Which context decides a setting's severity.
enum class EnvContext {
  always,     // changes every run's choices: warning
  network,    // inter-node transport: info on one node, warning across nodes
  peer,       // P2P transport between GPUs: info on one GPU, warning otherwise
  shm,        // SHM transport: used only between GPUs without peer access
  no_effect,  // performance-neutral or deliberate (cuMem): info
  nvls,       // NVLS off: NVLS_OFF says it where NVLS could run (analyse/expect/what_ran.hpp), else info
};

struct EnvRule {
  std::string_view name;  // a variable, or a prefix ending in '_' ("NCCL_IB_")
  std::string_view changes;
  EnvContext context;
};

// Every rule, in the order findings list them.
const std::vector<EnvRule>& env_rules();

// The rule for a variable (exact name first, then the longest prefix); nullptr when none.
const EnvRule* find_env_rule(std::string_view variable);

// The job a host's section belongs to: its settings act on the whole job, not on the host's GPUs.
struct JobShape {
  std::size_t gpus = 0;
  std::size_t hosts = 1;
};

// `job`: the section of one host of that job (nullptr: the run itself).
std::vector<Finding> check_environment(const Result& r, const JobShape* job = nullptr);

}  // namespace fb
