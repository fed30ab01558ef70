#pragma once
// Entry point when an outside launcher started fabricbench (mpirun, torchrun, srun, a
// PyTorchJob; comm/launch_env.hpp says how it is recognised): rank 0 runs the command as usual
// (its worker is a thread that drives its GPU); every other rank serves it, running each plan
// rank 0 broadcasts on its own GPU until rank 0 says it is done. Rank 0 sends data only: every
// rank takes its library and its files' paths from its own command line (docs/security.md).
#include <functional>
#include <string>
#include <vector>

#include "comm/launch_env.hpp"
#include "core/events.hpp"

namespace fb {

// What a rank takes from its own command line, never from another rank: the NCCL library it loads
// (--nccl-lib, "" the loader's), where its host's metrics file goes (--prometheus, "" none), and the
// command line itself (each host's first rank says it when the hosts describe themselves, and the
// preflight compares every host's with rank 0's).
struct RankOwnFlags {
  std::string nccl_lib;
  std::string prometheus;
  std::vector<std::string> command_line;
};
RankOwnFlags rank_own_flags(const std::vector<std::string>& args);

// Starts the job's session (`timeout_s` bounds the rendezvous), then runs `front_end` (the
// command line) on rank 0 and returns its exit code; the other ranks follow rank 0 with `own`.
// What the ranks other than 0 have to say (their warnings, their failures), the rendezvous's notes and
// the session's own failures go to `events`.
int job_main(JobLauncher launcher, double timeout_s, const RankOwnFlags& own, EventSink& events,
             const std::function<int()>& front_end);

// The commands that can run in such a job (the others are refused with a usage error there).
bool runs_in_job(const std::string& command);

}  // namespace fb
