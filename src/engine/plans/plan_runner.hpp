#pragma once
// Runs a Plan in a fresh set of workers and hands each point over as it completes. Shared by
// every command that measures collectives (run, algos, scale).
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "bench/plan.hpp"
#include "core/events.hpp"
#include "launch/supervisor.hpp"
#include "model/result.hpp"

namespace fb {

using PointHandler = std::function<void(int run_index, const Point& point)>;

struct PlanOutcome {
  SupervisorOutcome supervisor;
  std::string failure;                // one line naming the rank(s), the step and the reason; empty when ok
  std::vector<GpuInfo> gpus;          // in a job: every rank's GPU as its own host saw it
  std::vector<StartupPhase> startup;  // rank 0's steps up to its first point, as they began
};

// When a set of worker processes starts against the previous set's exit (tearing a CUDA context down
// takes about 0.6 s on an H200): after it (the default: the previous set's GPU memory is back, and a
// set timed with its exit is timed alone), or beside it, for a short untimed pass whose memory check
// waits for what it needs (check_free_memory).
enum class WorkerStart { after_exiting, beside_exiting };

// plan.nccl_env is set for the workers only (NCCL reads NCCL_ALGO and the like when a
// communicator is created, so each setting needs fresh processes, which both local launchers start). The
// workers' warnings go to `events`.
PlanOutcome run_plan(const Plan& plan, const PointHandler& on_point, EventSink& events,
                     WorkerStart start = WorkerStart::after_exiting);

// In a job of several ranks (mpirun, torchrun, srun), after a failed plan the other ranks may
// wait in a collective for ever: the only way on is to end the whole job (JobSession::abort).
// Call once the failure is reported and written; `events` hears that every rank is ended.
void end_job_if_failed(const Plan& plan, const PlanOutcome& outcome, EventSink& events);

// Each of `gpus`' local CPUs ("0-31"), from the topology; "" where unknown.
std::vector<std::string> local_cpulists(const Topology& topology, const std::vector<int>& gpus);

// plan.cpulists from the topology, for --cpu-bind.
void attach_cpulists(Plan& plan, const Topology& topology);

// The result-document header of plan.runs[index], forced NCCL_ALGO/NCCL_PROTO included.
Run make_run(const Plan& plan, std::size_t index);

// Sets environment variables for a scope and restores the previous values after.
class ScopedEnv {
 public:
  explicit ScopedEnv(const std::map<std::string, std::string>& vars);
  ~ScopedEnv();
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::map<std::string, std::optional<std::string>> saved_;
};

}  // namespace fb
