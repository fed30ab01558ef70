#include "engine/commands/run_measurement.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>

#include "analyse/judge.hpp"
#include "bench/nccl_setup.hpp"
#include "comm/job_session.hpp"
#include "core/environment.hpp"
#include "core/error.hpp"
#include "core/interrupt.hpp"
#include "core/process_clock.hpp"
#include "core/units.hpp"
#include "engine/job/job_nccl_log.hpp"
#include "engine/job/job_preflight.hpp"
#include "engine/machine/machine_facts.hpp"
#include "engine/machine/result_header.hpp"
#include "engine/plans/nccl_probe.hpp"
#include "engine/plans/plan_builder.hpp"
#include "engine/plans/plan_runner.hpp"
#include "engine/pricing/estimates.hpp"
#include "gpu/runtime.hpp"
#include "topo/machine_probe.hpp"

namespace fb {
namespace {

// Sizes a collective cannot run because they round to zero elements per rank are said, not hidden.
void warn_dropped_sizes(const RunRequest& request, const Plan& plan, EventSink& events) {
  for (const auto& run : plan.runs) {
    std::vector<std::string> dropped;
    for (const auto bytes : request.sizes)
      if (size_is_dropped(run, bytes, plan.nranks())) dropped.push_back(std::to_string(bytes));
    if (!dropped.empty())
      events.emit(
          make_event(EventKind::note,
                     fmt::format("{} {} skips size(s) {} B: less than one element per rank", run.collective,
                                 dtype_info(run.dtype).name, fmt::join(dropped, ", "))));
  }
}

std::size_t point_count(const Plan& plan) {
  std::size_t n = 0;
  for (const auto& run : plan.runs) n += run.points.size();
  return n;
}

void announce_estimate(const Plan& plan, bool read_nccl_log, const Topology& topology, EventSink& events) {
  const auto speed = prior_speed(topology, plan.gpus, nccl_settings(plan));
  double estimate_s = estimate_plan_s(plan, speed);
  if (read_nccl_log) estimate_s += estimate_plan_s(nccl_probe_plan(plan, ""), after_other_workers(speed));
  events.emit(make_event(EventKind::stage,
                         fmt::format("{} points on {} GPU{}, about {}", point_count(plan), plan.nranks(),
                                     plan.nranks() == 1 ? "" : "s", format_seconds(estimate_s))));
}

bool has_wrong_data(const Result& result) {
  for (const auto& run : result.runs)
    for (const auto& p : run.points)
      if (p.wrong > 0) return true;
  return false;
}

// The header, the GPUs (named by their hosts until the ranks describe their own) and the topology.
Result run_header(const std::vector<std::string>& command_line, const NcclLibrary& lib, Plan& plan) {
  Result result = make_result_header(command_line, &lib);
  add_gpus(result, plan.gpus);
  if (const JobSession* job = JobSession::current())
    for (auto& g : result.gpus) g.host = job->hosts().at(static_cast<std::size_t>(g.rank));
  result.topology = probe_topology({});
  attach_cpulists(plan, *result.topology);
  return result;
}

// The document's end: the ranks' own GPUs, the start-up steps (the sweep's, then what followed it),
// the status.
void finish_result(Result& result, std::vector<StartupPhase> startup, const PlanOutcome& outcome,
                   const std::vector<StartupPhase>& after_sweep) {
  if (!outcome.gpus.empty()) result.gpus = outcome.gpus;
  startup.insert(startup.end(), outcome.startup.begin(), outcome.startup.end());
  startup.insert(startup.end(), after_sweep.begin(), after_sweep.end());
  startup.push_back({"all workers ended", ms_since_process_start()});
  result.startup = std::move(startup);
  result.finished = now_iso8601();
  result.status = outcome.supervisor.ok ? RunStatus::complete : RunStatus::failed;
  result.failure = outcome.failure;
}

// Whether the logged pass runs: only in fresh worker processes (processes, threads). Where the ranks
// run NCCL in this process (an outside job) it would log nothing (NCCL reads NCCL_DEBUG once per
// process, at its first communicator: seen under torchrun on 2 fake hosts). On one rank there is
// nothing to read: NCCL copies locally, without a transport or an algorithm (its one-rank path), and
// the pass would cost a second set of workers (about 1 s) for no fact.
bool runs_logged_pass(const RunRequest& request, const Plan& plan) {
  return request.read_nccl_log && plan.launcher != LauncherKind::job && plan.nranks() >= 2;
}

// The logged pass's workers may start while the sweep's are still exiting where both sets' buffers
// fit each GPU at once (the memory check waits for the rest); otherwise after them.
WorkerStart logged_pass_start(const Plan& plan, const MachineFacts& facts) {
  const auto need = buffer_needs(plan).total_with_nccl();
  for (const int g : plan.gpus) {
    const auto i = static_cast<std::size_t>(g);
    if (i >= facts.devices.size() || facts.devices[i].memory_bytes < 2 * need)
      return WorkerStart::after_exiting;
  }
  return WorkerStart::beside_exiting;
}

// What NCCL chose at each point, from the logged pass after the timed one (it cannot slow it), or a
// note where it cannot run. Its failure costs the record, not the measured figures: a warning, and
// the runs keep no choices. The pass's start is stamped into `after_sweep` (run -v).
void read_nccl_choices(const RunRequest& request, const Plan& plan, const MachineFacts& facts, bool quiet,
                       Result& result, std::vector<StartupPhase>& after_sweep, EventSink& events) {
  if (!request.read_nccl_log || interrupt_requested()) return;
  if (attach_job_init_log(result.runs)) {
    if (!quiet)
      events.emit(
          make_event(EventKind::note,
                     "NCCL's set-up (transports, channels, NICs) read from rank 0's INIT log; its algorithm "
                     "and protocol per size are not (they would log a line per operation)"));
    return;
  }
  if (plan.nranks() < 2) return;  // one rank: NCCL neither connects nor chooses (runs_logged_pass)
  if (!runs_logged_pass(request, plan)) {
    if (!quiet)
      events.emit(make_event(EventKind::note,
                             "what NCCL chose is not read where the ranks run NCCL in fabricbench's own "
                             "process (mpirun, torchrun, srun): shown as \"not in NCCL's log\""));
    return;
  }
  try {
    after_sweep.push_back({"logged pass: NCCL's choices, one operation per point", ms_since_process_start()});
    const auto log = probe_nccl_choices(plan, "", quiet, events, nullptr, logged_pass_start(plan, facts));
    for (auto& run : result.runs) attach_nccl_log(run, log);
  } catch (const Error& e) {
    events.emit(make_event(EventKind::warning,
                           fmt::format("what NCCL chose is not recorded ({}); the figures stand", e.what())));
  }
}

}  // namespace

CommandOutcome measure_run(const RunRequest& request, const std::vector<std::string>& command_line,
                           const RunProgress& progress, EventSink& events) {
  // Each step is stamped as it begins; it lasts until the next one begins.
  // Under a job, before anything touches a GPU: a job that cannot succeed is refused in seconds.
  auto hosts = require_agreeing_hosts(request.settings, events, command_line);
  std::vector<StartupPhase> startup{{"CUDA driver start-up", ms_since_process_start()}};
  gpu::device_count();  // no GPU: an environment error, before loading NCCL
  startup.push_back({"loading NCCL, describing the GPUs", ms_since_process_start()});
  const OpenedMachine machine = open_machine(request.settings.nccl_lib);
  startup.push_back({"building the plan, probing the topology", ms_since_process_start()});
  Plan plan = build_plan(request, machine.facts);
  warn_dropped_sizes(request, plan, events);
  Result result = run_header(command_line, *machine.lib, plan);
  result.hosts = std::move(hosts);  // under a job: every host's facts, which its figures are judged by
  if (progress.announce) announce_estimate(plan, runs_logged_pass(request, plan), *result.topology, events);
  progress.planned(plan);
  progress.result.begun(result);

  // Runs appear in the result as their first point arrives.
  std::map<int, std::size_t> run_slot;
  auto on_point = [&](int index, const Point& point) {
    if (!run_slot.contains(index)) {
      run_slot[index] = result.runs.size();
      result.runs.push_back(make_run(plan, static_cast<std::size_t>(index)));
    }
    auto& run = result.runs[run_slot[index]];
    run.points.push_back(point);
    progress.result.point(result, run_slot[index], run.points.size() - 1);
  };
  if (request.read_nccl_log) start_job_init_log();
  const auto outcome = run_plan(plan, on_point, events);
  std::vector<StartupPhase> after_sweep;
  if (outcome.supervisor.ok)
    read_nccl_choices(request, plan, machine.facts, !progress.announce, result, after_sweep, events);
  finish_result(result, std::move(startup), outcome, after_sweep);
  judge(result);
  if (!outcome.supervisor.ok) events.emit(make_event(EventKind::error, outcome.failure));
  progress.result.ended(result);

  if (!outcome.supervisor.ok) {
    end_job_if_failed(plan, outcome, events);
    return {std::move(result), outcome.supervisor.code};
  }
  const ExitCode code = has_wrong_data(result) ? ExitCode::finding : ExitCode::ok;
  return {std::move(result), code};
}

}  // namespace fb
