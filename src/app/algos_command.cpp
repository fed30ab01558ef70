#include "app/algos_command.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <iostream>
#include <set>

#include "analyse/algo_selection.hpp"
#include "comm/job_session.hpp"
#include "core/environment.hpp"
#include "core/error.hpp"
#include "core/interrupt.hpp"
#include "core/units.hpp"
#include "engine/algos_runner.hpp"
#include "engine/estimates.hpp"
#include "engine/machine_facts.hpp"
#include "engine/plan_builder.hpp"
#include "engine/plan_runner.hpp"
#include "engine/result_header.hpp"
#include "gpu/runtime.hpp"
#include "report/algos_report.hpp"
#include "report/json_reporter.hpp"
#include "topo/machine_probe.hpp"

namespace fb {
namespace {

// The hosts the job spans (1 when fabricbench started its own workers): the tuner file's nNodes.
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

}  // namespace

int algos_command(const AlgosOptions& o, const std::vector<std::string>& command_line, EventSink& events) {
  const AlgosRequest request = algos_request(o);  // usage errors first, before touching GPU or NCCL
  gpu::device_count();
  auto lib = NcclLibrary::load(request.measure.settings.nccl_lib);
  const auto machine = probe_machine_facts(*lib);
  const JobSession* job = JobSession::current();
  Plan plan = build_plan(request.measure, machine);
  for (const char* var : {"NCCL_ALGO", "NCCL_PROTO"})
    if (std::getenv(var))
      events.emit(make_event(EventKind::warning,
                             fmt::format("{} is set; the 'default' sweep is not NCCL's own choice", var)));

  Result result = make_result_header(command_line, lib.get());
  result.topology = probe_topology({});
  attach_cpulists(plan, *result.topology);
  add_gpus(result, plan.gpus);

  if (!o.measure.quiet) {
    const auto speed = after_other_workers(prior_speed(*result.topology, plan.gpus, nccl_settings(plan)));
    const auto& sizes = request.measure.sizes;
    const AlgosGrid grid{sizes, request.algos, request.protos, 0, false};
    events.emit(
        make_event(EventKind::stage,
                   fmt::format("{} configurations of {} sizes on {} GPU{}, about {}",
                               forced_pairs(request.algos, request.protos, false).size() + 1, sizes.size(),
                               plan.nranks(), plan.nranks() == 1 ? "" : "s",
                               format_seconds(estimate_choices_s(sizes, speed) +
                                              estimate_algos_s(grid, speed, plan.settings.sampling)))));
  }
  AlgosSweep sweep;
  {
    const InterruptScope ctrl_c;  // Ctrl-C ends the sweep, keeping the configurations measured
    sweep = run_algos(plan, request.algos, request.protos, request.keep_logs, o.measure.quiet, events);
  }
  for (auto& run : sweep.runs) result.runs.push_back(std::move(run));
  result.findings = forced_beats_default(sweep.configs, 0.01, 0);
  result.finished = now_iso8601();
  result.status = RunStatus::complete;
  if (interrupt_requested())
    mark_interrupted(
        result,
        fmt::format("interrupted after {} of {} configurations began", sweep.configs.size(), sweep.planned),
        events);

  const AlgosTable table = table_of(plan, sweep);
  ReporterSet reporters;
  reporters.add(std::make_unique<AlgosConsoleReporter>(std::cout, table));
  if (!o.tuner_csv.empty())
    reporters.add(std::make_unique<TunerCsvReporter>(std::cout, o.tuner_csv, table, node_count(job)));
  if (!o.measure.json_path.empty()) reporters.add(std::make_unique<JsonReporter>(o.measure.json_path));
  reporters.end(result);
  return result.status == RunStatus::failed ? static_cast<int>(ExitCode::run_failed) : 0;
}

}  // namespace fb
