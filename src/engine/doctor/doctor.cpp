#include "engine/doctor/doctor.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>

#include "analyse/judge.hpp"
#include "comm/job_session.hpp"
#include "core/environment.hpp"
#include "core/interrupt.hpp"
#include "core/units.hpp"
#include "engine/doctor/doctor_job_stages.hpp"
#include "engine/job/host_sections.hpp"
#include "engine/machine/machine_facts.hpp"
#include "engine/machine/result_header.hpp"
#include "engine/plans/plan_builder.hpp"
#include "engine/pricing/estimates.hpp"
#include "topo/machine_probe.hpp"

namespace fb {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::string estimate_text(const DoctorStage& stage, const DoctorContext& ctx) {
  if (ctx.plan.estimate_s >= 0)
    return fmt::format("{:.0f} s at the measured speed", std::ceil(ctx.plan.estimate_s));
  return format_seconds(stage.prior_s(ctx));
}

// Stage `index` of `total` begins: what it does, about how long it takes, the time so far.
Event stage_event(const DoctorStage& stage, const DoctorContext& ctx, std::size_t index, std::size_t total,
                  double elapsed_s) {
  Event event =
      make_event(EventKind::progress, fmt::format("doctor [{}/{}] {} (about {}; {:.0f} s so far)", index + 1,
                                                  total, stage.what, estimate_text(stage, ctx), elapsed_s));
  event.sweep = SweepPosition{static_cast<int>(index), static_cast<int>(total), elapsed_s, std::nullopt};
  return event;
}

// Every stage at the prior speed, each with the budget the ones before it leave.
double up_front_s(const std::vector<const DoctorStage*>& stages, DoctorContext ctx) {
  double total = 0;
  for (const auto* stage : stages) {
    ctx.budget_left_s = ctx.request.budget_or_default() - total;
    total += stage->prior_s(ctx);
  }
  return total;
}

// A stage that throws (NCCL's probe or default sweep failed, a plan the machine refuses) is a
// failed stage like one that reports its failure: the document says so before the doctor fails.
StageOutput run_stage(const DoctorStage& stage, const DoctorContext& ctx) {
  try {
    return stage.run(ctx);
  } catch (const Error& e) {
    StageOutput out;
    out.failure = e.what();
    out.code = e.code();
    return out;
  }
}

// A stage failed: the document keeps every fact and is judged with what it has, naming the stage,
// before the doctor fails with the stage's exit code.
[[noreturn]] void fail_stage(const DoctorStage& stage, const StageOutput& out, Result& result,
                             const DoctorProgress& progress) {
  result.finished = now_iso8601();
  result.status = RunStatus::failed;
  result.failure = fmt::format("{} stage: {}", stage.name, out.failure);
  judge(result);  // under a job, each host on its own too
  progress.updated(result);
  throw Error(out.code, fmt::format("{} stage failed: {}", stage.name, out.failure));
}

// Under a job every host is described and compared before anything touches a GPU (engine/job_preflight).
// A job whose hosts disagree on what NCCL needs alike ends here: its document, judged with every host's
// facts (status refused, action fix_configuration), goes to `progress`, and the doctor exits 2.
std::optional<JobPreflight> preflight_first(const DoctorRequest& request,
                                            const std::vector<std::string>& command_line,
                                            const DoctorProgress& progress, EventSink& events) {
  JobSession* job = JobSession::current();
  if (job == nullptr) return std::nullopt;
  const auto start = Clock::now();
  auto preflight = preflight_job(*job, request.settings, events, command_line);
  if (preflight.refusal.empty()) return preflight;
  Result result = make_result_header(command_line, nullptr, false);  // the GPU runtime is not asked
  for (const auto& s : preflight.hosts)
    if (s.name == job->host()) {
      result.host = s.host;
      result.topology = s.topology;
    }
  result.hosts = preflight.hosts;
  result.gpus = ranks_gpus(result.hosts);
  result.expectations = request.expectations;
  result.doctor =
      DoctorInfo{request.budget_or_default(), {}, {{"preflight", kPreflightPriorS, seconds_since(start)}}};
  result.finished = now_iso8601();
  result.status = RunStatus::refused;
  result.failure = preflight.refusal;
  judge(result);  // under a job, each host on its own too
  progress.begun(result);
  throw Error(ExitCode::usage, preflight.refusal);
}

// Under a job, what the doctor leaves to a run on each host.
void announce_job_limits(const JobSession* job, EventSink& events) {
  if (job == nullptr) return;
  events.emit(
      make_event(EventKind::note,
                 fmt::format("across {} ranks of {}: the host checks of every host and the collectives "
                             "across hosts; GPU pairs, NCCL's choices per size, scaling and algorithms are "
                             "measured by `fabricbench doctor` on each host",
                             job->size(), job->launcher_command())));
}

// The document before the first stage: header, GPUs (named by their host in a job), topology, judged.
Result doctor_header(const std::vector<std::string>& command_line, const NcclLibrary& lib,
                     const std::vector<int>& gpus, const DoctorRequest& request, const JobSession* job) {
  Result result = make_result_header(command_line, &lib);
  add_gpus(result, gpus);
  if (job != nullptr)
    for (auto& g : result.gpus) g.host = job->host();
  result.topology = probe_topology({});
  result.expectations = request.expectations;
  // Under a job the other hosts' GPUs are not known yet (the preflight gathers them): judged then.
  if (job == nullptr) judge(result);  // under a job, each host on its own too
  return result;
}

// The stages that apply, announced with their time in all (and, in a job, what is left to each host).
std::vector<const DoctorStage*> announced_stages(const DoctorContext& ctx, EventSink& events) {
  std::vector<const DoctorStage*> stages;
  for (const auto& stage : doctor_stages())
    if (stage.applies(ctx)) stages.push_back(&stage);
  events.emit(make_event(EventKind::stage, fmt::format("{} doctor stages, about {} (budget {:.0f} s: later "
                                                       "stages are cut to fit)",
                                                       stages.size(), format_seconds(up_front_s(stages, ctx)),
                                                       ctx.request.budget_or_default())));
  announce_job_limits(ctx.job, events);
  return stages;
}

}  // namespace

Result run_doctor(const DoctorRequest& request, const std::vector<std::string>& command_line,
                  const DoctorProgress& progress, EventSink& events) {
  const auto start = Clock::now();
  const auto preflight = preflight_first(request, command_line, progress, events);
  const OpenedMachine machine = open_machine(request.settings.nccl_lib);
  const auto& facts = machine.facts;
  const auto gpus = resolve_gpus(request.gpus, static_cast<int>(facts.devices.size()));
  JobSession* job = JobSession::current();

  Result result = doctor_header(command_line, *machine.lib, gpus, request, job);
  progress.begun(result);

  result.doctor = DoctorInfo{request.budget_or_default(), {}, {}};
  DoctorContext ctx{request,
                    facts,
                    gpus,
                    doctor_collectives_request(request, facts, gpus),
                    result,
                    events,
                    request.budget_or_default(),
                    job != nullptr ? job_prior_speed(job->size(), capture_comm_env())
                                   : prior_speed(*result.topology, gpus, capture_comm_env()),
                    FabricSpeed{},
                    StagePlan{},
                    NcclLogSummary{},
                    job,
                    preflight ? &*preflight : nullptr};
  const auto stages = announced_stages(ctx, events);
  const InterruptScope ctrl_c;  // Ctrl-C ends the stage running and the doctor, keeping the report
  for (std::size_t i = 0; i < stages.size() && !interrupt_requested(); ++i) {
    const DoctorStage& stage = *stages[i];
    ctx.budget_left_s = request.budget_or_default() - seconds_since(start);
    ctx.plan = stage.plan != nullptr ? stage.plan(ctx) : StagePlan{};
    events.emit(stage_event(stage, ctx, i, stages.size(), seconds_since(start)));
    for (const auto& cut : ctx.plan.cuts) {
      events.emit(
          make_event(EventKind::note, fmt::format("cut {} from {}: {}", cut.what, cut.stage, cut.why)));
      result.doctor->cuts.push_back(cut);
    }
    const auto stage_start = Clock::now();
    StageOutput out = run_stage(stage, ctx);
    const double took_s = seconds_since(stage_start);
    const std::string failure = out.failure;
    // The speed, the cost of a set of workers and NCCL's choices every later stage is planned from.
    if (failure.empty() && stage.learn != nullptr) stage.learn(out, took_s, ctx);
    stage.merge(out, result);
    // The estimate announced: measured where the stage's plan had the speed, else the prior.
    const double announced_s = ctx.plan.estimate_s >= 0 ? ctx.plan.estimate_s : stage.prior_s(ctx);
    result.doctor->stages.push_back({std::string(stage.name), announced_s, took_s});
    if (!failure.empty() && !interrupt_requested()) fail_stage(stage, out, result, progress);
    progress.updated(result);
  }

  result.finished = now_iso8601();
  result.status = RunStatus::complete;  // before the verdicts: an unfinished run is a finding
  if (interrupt_requested())
    mark_interrupted(result,
                     result.doctor->stages.empty()
                         ? "interrupted"
                         : fmt::format("interrupted during the {} stage", result.doctor->stages.back().stage),
                     events);
  judge(result);  // under a job, each host on its own too
  progress.updated(result);
  return result;
}

}  // namespace fb
