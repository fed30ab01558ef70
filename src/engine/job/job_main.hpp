#pragma once
// Entry point when an outside launcher started fabricbench (mpirun, torchrun, srun, a
// PyTorchJob; comm/launch_env.hpp says how it is recognised): rank 0 runs the command as usual
// (its worker is a thread that drives its GPU); every other rank serves it, running each plan
// rank 0 broadcasts on its own GPU until rank 0 says it is done.
#include <functional>
#include <string>
#include <vector>

#include "comm/launch_env.hpp"
#include "core/events.hpp"

namespace fb {

// Starts the job's session (`timeout_s` bounds the rendezvous), then runs `front_end` (the
// command line) on rank 0 and returns its exit code. What the ranks other than 0 have to say (their
// warnings, their failures) and the session's own failures go to `events`.
// `command_line` is this rank's own: each host's first rank says it when the hosts describe themselves.
int job_main(JobLauncher launcher, double timeout_s, EventSink& events, const std::function<int()>& front_end,
             const std::vector<std::string>& command_line);

// The commands that can run in such a job (the others are refused with a usage error there).
bool runs_in_job(const std::string& command);

}  // namespace fb
