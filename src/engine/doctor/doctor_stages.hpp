#pragma once
// The doctor's stages as data: what each runs, how long it takes (quick and thorough), and
// how its output merges into the result document. engine/doctor/doctor.hpp runs them in order.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/p2p_plan.hpp"
#include "comm/job_session.hpp"
#include "comm/nccl_log.hpp"
#include "core/error.hpp"
#include "core/events.hpp"
#include "engine/job/job_preflight.hpp"
#include "engine/machine/machine_facts.hpp"
#include "engine/pricing/doctor_budget.hpp"
#include "model/result.hpp"
#include "request/command_requests.hpp"

namespace fb {

// A stage's plan under the budget (engine/pricing/doctor_budget.hpp), made before it runs.
struct StagePlan {
  double estimate_s = -1;  // from the measured speed; < 0: not known yet (the row's figure stands)
  std::vector<DoctorCut> cuts;
  AlgosGrid algos;                   // the algorithms stage's grid, after its cuts
  std::uint64_t scaling_bytes = 0;   // the scaling stage's size, after its cut
  std::vector<std::uint64_t> sizes;  // under a job: the collectives stage's sizes, after its cuts
  double pair_window_s = 0;          // under a job: the nodes stage's window per round (0: not run)
};

// What a stage works with: the request, the machine, the GPUs, the document so far (header,
// topology and every earlier stage's output), and the budget.
struct DoctorContext {
  const DoctorRequest& request;
  const MachineFacts& facts;
  std::vector<int> gpus;
  RunRequest collectives;  // the verified sweep; the later stages derive theirs from it
  const Result& result;
  EventSink& events;         // what the measuring stages say (warnings, the scaling groups)
  double budget_left_s = 0;  // of --budget, as the stage starts
  FabricSpeed prior;         // what the topology promises (engine/pricing/estimates.hpp), before measuring
  FabricSpeed speed;         // measured by the collectives stage (unknown before it)
  StagePlan plan;            // this stage's, from its `plan` function
  NcclLogSummary nccl_log;   // what NCCL logged in the choices stage
  // Under mpirun, torchrun or srun: the job (rank 0 runs the doctor); null on one host.
  JobSession* job = nullptr;
  // And the hosts as its preflight described and compared them, before the machine was opened.
  const JobPreflight* preflight = nullptr;
};

// What a stage measured, before its merge puts it into the document.
struct StageOutput {
  std::vector<P2pMeasurement> p2p;
  std::vector<Run> runs;
  NcclLogSummary log;               // the choices stage's reading of NCCL's set-up and choices
  std::vector<Point> probe_points;  // and its one operation per size, as timed (not published)
  HostFacts host;                   // the host stage's reading of the machine's configuration
  std::vector<HostSection> hosts;   // and under a job, every host's own description
  std::vector<GpuInfo> gpus;        // under a job: every rank's GPU, as its host saw it
  std::optional<NodesInfo> nodes;   // the nodes stage's pairs of hosts and the hosts it named
  std::string failure;  // not empty: the stage failed (the document is written, then the doctor fails)
  ExitCode code = ExitCode::run_failed;
};

struct DoctorStage {
  std::string_view name;  // "collectives": in "collectives stage failed: ..."
  std::string_view what;  // announced before the stage runs
  // Seconds the stage should take, from the topology's promise (ctx.prior) and the budget left,
  // before anything is measured: the doctor's up-front estimate and the stage's announcement until
  // `plan` has a measured one.
  double (*prior_s)(const DoctorContext&);
  bool (*applies)(const DoctorContext&);
  // The estimate and cuts that fit the budget left; nullptr: the stage is not cut.
  StagePlan (*plan)(const DoctorContext&);
  StageOutput (*run)(const DoctorContext&);
  // What the later stages learn from this one's output and wall time (nullptr: nothing); only
  // after a stage that did not fail.
  void (*learn)(const StageOutput& output, double took_s, DoctorContext& ctx);
  void (*merge)(StageOutput& output, Result& result);
};

// host, pairs, collectives, choices, scaling (more than 2 GPUs), algorithms; in the order they
// run.
const std::vector<DoctorStage>& doctor_stages();

// What the pairs stage measures (bench/p2p_plan.hpp): every pair and host link, fewer and
// smaller copies when quick.
P2pPlan doctor_pairs_plan(const DoctorContext& ctx);

// `request`'s plan run on the doctor's GPUs (under a job, every rank's), its runs and every rank's
// GPU kept; a failed plan is the stage's failure.
StageOutput run_collectives_plan(const RunRequest& request, const DoctorContext& ctx);

// The collectives request without verification, all_reduce only: the later stages' base.
RunRequest unverified_all_reduce(const RunRequest& collectives);

// The verified collective sweep: quick, a few sizes; thorough, 1 MiB up to what fits, by 4.
RunRequest doctor_collectives_request(const DoctorRequest& request, const MachineFacts& facts,
                                      const std::vector<int>& gpus);

}  // namespace fb
