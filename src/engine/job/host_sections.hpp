#pragma once
// The doctor across hosts (under mpirun, torchrun or srun): each host describes itself (its
// versions, NCCL_* environment, GPUs, topology, configuration and NICs: the document's `hosts`), rank
// 0 gathers the descriptions and judges each host on its own and the hosts against each other.
#include <string>
#include <vector>

#include "comm/job_session.hpp"
#include "model/result.hpp"

namespace fb {

// This host as its first rank sees it; `nccl_lib` as the command was given it ("" the default), and
// `command_line` the rank's own (the preflight compares every host's with rank 0's).
HostSection describe_this_host(const JobSession& job, const std::string& nccl_lib,
                               const std::vector<std::string>& command_line);

// On rank 0: asks every host to describe itself and returns the sections, in host order (the
// order of each host's first rank). The other ranks answer in engine/job_main's loop. A section is
// taken from its host's first rank only, parsed with its nesting bounded and its fields checked
// (Error(run_failed) naming the rank otherwise), and is that rank's host's: its name, ranks and GPUs'
// host are the session's, whatever the section said (docs/security.md).
std::vector<HostSection> gather_host_sections(JobSession& job, const std::string& nccl_lib,
                                              const std::vector<std::string>& command_line);

// The hand-off message that asks every host to describe itself (kJobDescribeHosts alone: each rank
// describes its host with its own --nccl-lib, never a library another rank names), and whether
// `message` is it.
std::string describe_hosts_message();
bool describe_hosts_request(const std::string& message);

// Every rank's GPU, from the sections: a host's ranks drive its GPUs in order (one rank per GPU, as
// the launchers start them), until the ranks describe their own.
std::vector<GpuInfo> ranks_gpus(const std::vector<HostSection>& sections);

// On a rank other than 0, in answer to that message, with its own command line.
void answer_describe_hosts(JobSession& job, const std::string& nccl_lib,
                           const std::vector<std::string>& command_line);

}  // namespace fb
