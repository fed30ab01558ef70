#pragma once
// The preflight of a job across hosts (issue 40): before the first collective of `run`, `algos`,
// `nodes` or the doctor under mpirun, torchrun or srun, every host describes itself
// (engine/host_sections) and rank 0 compares them (analyse/host_consistency). A difference in what
// NCCL needs alike on every rank (analyse/hosts/must_agree.hpp: the version, NCCL_ALGO, NCCL_PROTO,
// buffers, channels, transports) would hang the job or fail it when the ranks connect: the job is
// refused in seconds, naming the variable and the hosts, unless --allow-mismatch. Any other
// difference is a warning and the job goes on.
#include <string>
#include <vector>

#include "bench/run_settings.hpp"
#include "comm/job_session.hpp"
#include "core/events.hpp"
#include "model/result.hpp"

namespace fb {

struct JobPreflight {
  std::vector<HostSection> hosts;  // every host's description, in host order
  std::vector<Finding> findings;   // the hosts compared (HOST_MISMATCH_*)
  // Why the job is refused ("" when it may run): the must-agree differences, in one line.
  std::string refusal;
};

// The decision on the hosts' descriptions (a pure function): compared, and refused where a must-agree
// difference is found and `settings.allow_mismatch` is off. `launcher` names the job ("torchrun").
JobPreflight judge_preflight(std::vector<HostSection> hosts, const RunSettings& settings,
                             const std::string& launcher);

// On rank 0 (the other ranks answer in engine/job_main's loop): every host described, then judged.
// The warnings, and the errors that --allow-mismatch lets through, go to `events`; the refusal does
// not (the caller decides).
// `command_line`: rank 0's own, which every host's is compared with (one job, one set of options).
JobPreflight preflight_job(JobSession& job, const RunSettings& settings, EventSink& events,
                           const std::vector<std::string>& command_line);

// run, algos, nodes: the preflight of the current job, if there is one; a refusal is a usage
// error (exit 2) that names each difference and the way out. Returns every host's description for
// the command's document (`hosts`: empty on one host).
std::vector<HostSection> require_agreeing_hosts(const RunSettings& settings, EventSink& events,
                                                const std::vector<std::string>& command_line);

}  // namespace fb
