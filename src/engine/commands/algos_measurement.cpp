#include "engine/commands/algos_measurement.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <set>

#include "analyse/judge.hpp"
#include "comm/job_session.hpp"
#include "core/environment.hpp"
#include "core/interrupt.hpp"
#include "core/units.hpp"
#include "engine/job/job_preflight.hpp"
#include "engine/machine/machine_facts.hpp"
#include "engine/machine/result_header.hpp"
#include "engine/plans/algos_runner.hpp"
#include "engine/plans/plan_builder.hpp"
#include "engine/plans/plan_runner.hpp"
#include "engine/pricing/estimates.hpp"
#include "topo/machine_probe.hpp"

namespace fb {
namespace {

int node_count(const JobSession* job) {
  return job == nullptr ? 1 : static_cast<int>(std::set(job->hosts().begin(), job->hosts().end()).size());
}

AlgosTable table_of(const Plan& plan, AlgosSweep& sweep) {
  const auto& run = plan.runs.at(0);
  return {.collective = run.collective,
          .dtype = std::string(dtype_info(run.dtype).name),
          .op = std::string(redop_info(run.op).name),
          .nranks = plan.nranks(),
          .configs = std::move(sweep.configs),
          .transports = std::vector<std::string>(sweep.log.transports.begin(), sweep.log.transports.end()),
          .coll_channels = sweep.log.coll_channels,
          .p2p_channels = sweep.log.p2p_channels};
}

void warn_forced_environment(EventSink& events) {
  for (const char* var : {"NCCL_ALGO", "NCCL_PROTO"})
    if (std::getenv(var))
      events.emit(make_event(EventKind::warning,
                             fmt::format("{} is set; the 'default' sweep is not NCCL's own choice", var)));
}

void announce_estimate(const AlgosRequest& request, const Plan& plan, const Topology& topology,
                       EventSink& events) {
  const auto speed = after_other_workers(prior_speed(topology, plan.gpus, nccl_settings(plan)));
  const auto& sizes = request.measure.sizes;
  const AlgosGrid grid{sizes, request.algos, request.protos, 0, false};
  const double estimate_s =
      estimate_choices_s(sizes, speed) + estimate_algos_s(grid, speed, plan.settings.sampling);
  events.emit(
      make_event(EventKind::stage,
                 fmt::format("{} configurations of {} sizes on {} GPU{}, about {}",
                             forced_pairs(request.algos, request.protos, false).size() + 1, sizes.size(),
                             plan.nranks(), plan.nranks() == 1 ? "" : "s", format_seconds(estimate_s))));
}

}  // namespace

AlgosOutcome measure_algos(const AlgosRequest& request, const std::vector<std::string>& command_line,
                           bool quiet, EventSink& events) {
  auto hosts =
      require_agreeing_hosts(request.measure.settings, events, command_line);  // before any GPU is touched
  const OpenedMachine machine = open_machine(request.measure.settings.nccl_lib);
  Plan plan = build_plan(request.measure, machine.facts);
  warn_forced_environment(events);

  Result result = make_result_header(command_line, machine.lib.get());
  result.hosts = std::move(hosts);
  result.topology = probe_topology({});
  attach_cpulists(plan, *result.topology);
  add_gpus(result, plan.gpus);
  if (!quiet) announce_estimate(request, plan, *result.topology, events);

  AlgosSweep sweep;
  {
    const InterruptScope ctrl_c;  // Ctrl-C ends the sweep, keeping the configurations measured
    sweep = run_algos(plan, request.algos, request.protos, request.keep_logs, quiet, events);
  }
  for (auto& run : sweep.runs) result.runs.push_back(std::move(run));
  result.finished = now_iso8601();
  result.status = RunStatus::complete;
  if (interrupt_requested())
    mark_interrupted(
        result,
        fmt::format("interrupted after {} of {} configurations began", sweep.configs.size(), sweep.planned),
        events);
  judge(result);
  const ExitCode code = result.status == RunStatus::failed ? ExitCode::run_failed : ExitCode::ok;
  AlgosTable table = table_of(plan, sweep);
  return {{std::move(result), code}, std::move(table), node_count(JobSession::current())};
}

}  // namespace fb
