#pragma once
// The same on every host (issue 29): the host sections of a job across hosts (`Result::hosts`,
// model/result.hpp) compared fact by fact, since mismatched versions and settings are a known cause
// of hangs. One finding per fact that differs; its evidence groups the hosts by value, each group
// as a Slurm hostlist (comm/hostlist.hpp), the most common value first:
//   "NCCL version differs between hosts: NCCL 2.28.3 on node[01-03]; NCCL 2.27.5 on node04"
// A host whose fact is unknown (an empty version, GPUs not listed, network not read) is left out of
// that fact's comparison: an unread fact is never a difference. Fewer than 2 hosts: no finding.
//   HOST_MISMATCH_NCCL        the collective library's name and version (error: NCCL refuses ranks of
//                             different versions when they connect); the same version from different
//                             files (info: usually the same code, but builds may differ)
//   HOST_MISMATCH_COMMAND     the arguments of a host's first rank differ from another's (error: one job, one
//                             set of options; each rank obeys its own, so the hosts would run different jobs)
//   HOST_MISMATCH_DRIVER      the driver's or the runtime's version: warning when the major differs
//                             (another CUDA/ROCm generation), info for a minor (fleets mid-rollout run
//                             so under CUDA's minor-version compatibility)
//   HOST_MISMATCH_ENV         an NCCL_* or RCCL_* variable set differently, or only on some hosts: an
//                             error for the ones every rank must have alike (analyse/hosts/must_agree.hpp:
//                             an algorithm, protocol, buffer, channel or transport chosen differently
//                             hangs), a warning for the others. Variables that differ per host by
//                             design are not compared (kHostSpecificEnv below)
// The errors are configuration faults: their check's action is "fix the job's configuration"
// (analyse/verdict/verdict_contract.hpp), never "drain".
//   HOST_MISMATCH_GPUS        the GPUs' count or model (warning)
//   HOST_MISMATCH_NICS        the up IB/RoCE ports' count or rates (warning: a ring across hosts runs at
//                             its slowest host's network); the up Ethernet ports' (info: management
//                             ports differ harmlessly); among hosts whose network was read
//   HOST_MISMATCH_NET_PLUGIN  a NET plugin on some hosts and none on others (warning: those hosts use
//                             another network transport); different plugin files (info)
//   HOST_MISMATCH_HANG        the job hung (a rank did not finish within --timeout) while its hosts differ in
//                             an NCCL_*/RCCL_* setting (any HOST_MISMATCH_ENV): the difference named as the
//                             likely cause (error; the action fix_configuration, and the hang's RUN_FAILED is
//                             then a warning: analyse/rule_table)
#include <array>
#include <string_view>
#include <vector>

#include "model/result.hpp"

namespace fb {

// A variable that differs per host by design, and why; a name ending in '_' is a prefix.
struct HostSpecificEnv {
  std::string_view name;
  std::string_view why;
};

// NCCL_HOSTID; NCCL_DEBUG and NCCL_DEBUG_* (what NCCL logs and where: NCCL_DEBUG_FILE holds %h, %p);
// NCCL_TOPO_DUMP_FILE and NCCL_GRAPH_DUMP_FILE (where NCCL writes what it found).
inline constexpr std::array kHostSpecificEnv{
    HostSpecificEnv{"NCCL_HOSTID", "names the host to NCCL: one per host by design"},
    HostSpecificEnv{"NCCL_DEBUG", "changes only what NCCL logs"},
    HostSpecificEnv{"NCCL_DEBUG_", "what NCCL logs and where (NCCL_DEBUG_FILE is often per host: %h, %p)"},
    HostSpecificEnv{"NCCL_TOPO_DUMP_FILE", "where NCCL writes the topology it found: a path per host"},
    HostSpecificEnv{"NCCL_GRAPH_DUMP_FILE", "where NCCL writes the graphs it chose: a path per host"},
};

// Whether `variable` is compared across hosts: NCCL_* and RCCL_*, less kHostSpecificEnv.
bool compared_across_hosts(std::string_view variable);

std::vector<Finding> compare_hosts(const std::vector<HostSection>& hosts);

// Whether the document's run hung: its failure, a run's or a pair's says a rank did not finish within
// --timeout (core/error.hpp, kRanPastTimeout).
bool run_hung(const Result& r);

// HOST_MISMATCH_HANG where `r` hung and `compared` (compare_hosts of its sections) holds an NCCL_*/RCCL_*
// difference; nothing otherwise.
std::vector<Finding> explain_hang(const Result& r, const std::vector<Finding>& compared);

// What the comparison compares, in its words (also the report's hosts table): the GPUs by model
// ("8 x NVIDIA H200"), and the up ports of one family by kind and rate ("8 x IB 400 Gb/s + 1 x IB
// 200 Gb/s"; "no up IB/RoCE port"; "" when the host's network was not read).
std::string gpus_text(const std::vector<GpuInfo>& gpus);
std::string ports_text(const HostSection& h, bool rdma);

}  // namespace fb
