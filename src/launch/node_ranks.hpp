#pragma once
// The ranks of one node, started by fabricbench itself where the launcher starts one process per
// node (a pod of an Indexed Job, or of a PyTorchJob whose command is fabricbench): `count` copies
// of this program with the same command line, each with FABRICBENCH_LOCAL_RANK set to its index
// (comm/launch_env reads rank = node x count + local rank). What torchrun --no-python does, for
// a container that has fabricbench and no Python. Where this node is the whole job and no secret
// was given, the ranks get one drawn here (comm/job_secret): nothing to set for one pod.
#include <string>
#include <vector>

#include "comm/launch_env.hpp"

namespace fb {

// Starts them and waits for all; SIGINT and SIGTERM (a pod deleted) are passed on. Returns local
// rank 0's exit code when it is not 0 (rank 0 of the job is local rank 0 of node 0, whose code is
// the command's: 1 for a CRITICAL check), else the first other rank's that is not, else 0; a rank
// ended by a signal counts as 128 + the signal, as a shell says.
int start_node_ranks(JobLauncher launcher, int count, const std::vector<std::string>& args);

}  // namespace fb
