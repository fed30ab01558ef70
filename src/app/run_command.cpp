#include "app/run_command.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>

#include "bench/plan.hpp"
#include "cli/run_request.hpp"
#include "comm/job_session.hpp"
#include "comm/nccl_library.hpp"
#include "core/environment.hpp"
#include "core/error.hpp"
#include "core/process_clock.hpp"
#include "core/units.hpp"
#include "engine/estimates.hpp"
#include "engine/machine_facts.hpp"
#include "engine/plan_builder.hpp"
#include "engine/plan_runner.hpp"
#include "engine/result_header.hpp"
#include "gpu/runtime.hpp"
#include "launch/protocol.hpp"
#include "launch/supervisor.hpp"
#include "model/result_json.hpp"
#include "report/console_reporter.hpp"
#include "report/csv_reporter.hpp"
#include "report/json_reporter.hpp"
#include "report/progress_line.hpp"
#include "report/startup_report.hpp"
#include "topo/machine_probe.hpp"

namespace fb {
namespace {

// Sizes a collective cannot run because they round to zero elements per rank are said, not hidden.
void warn_dropped_sizes(const RunRequest& request, const Plan& plan, EventSink& events) {
  for (const auto& run : plan.runs) {
    const auto elem = dtype_info(run.dtype).size;
    const auto& spec = collective(run.collective);
    std::vector<std::string> dropped;
    for (const auto bytes : request.sizes)
      if (spec.counts(bytes / elem, plan.nranks(), elem).reported_elements() == 0)
        dropped.push_back(std::to_string(bytes));
    if (!dropped.empty())
      events.emit(
          make_event(EventKind::note,
                     fmt::format("{} {} skips size(s) {} B: less than one element per rank", run.collective,
                                 dtype_info(run.dtype).name, fmt::join(dropped, ", "))));
  }
}

// Says why the run ended early and where its points are; the exit code is the failure's.
int end_failed_run(const RunOptions& options, const Plan& plan, const PlanOutcome& outcome,
                   EventSink& events) {
  print_error(outcome.failure);
  if (!options.json_path.empty())
    events.emit(make_event(EventKind::stage, fmt::format("the points completed before the failure are in {}",
                                                         options.json_path)));
  end_job_if_failed(plan, outcome, events);
  // A worker thread stuck in NCCL cannot be joined: leave without running destructors.
  if (plan.launcher == LauncherKind::threads) {
    std::cout.flush();
    std::fflush(nullptr);
    std::_Exit(static_cast<int>(outcome.supervisor.code));
  }
  return static_cast<int>(outcome.supervisor.code);
}

// Every point's size in the order the plan measures them (the progress line's denominator).
std::vector<std::uint64_t> planned_bytes(const Plan& plan) {
  std::vector<std::uint64_t> bytes;
  for (const auto& run : plan.runs)
    for (const auto& p : run.points) bytes.push_back(p.bytes);
  return bytes;
}

bool has_wrong_data(const Result& result) {
  for (const auto& run : result.runs)
    for (const auto& p : run.points)
      if (p.wrong > 0) return true;
  return false;
}

}  // namespace

int run_command(const RunOptions& options, const std::vector<std::string>& command_line, EventSink& events) {
  const RunRequest request = run_request(options);  // usage errors first, before touching GPU or NCCL
  // Each step is stamped as it begins; it lasts until the next one begins.
  std::vector<StartupPhase> startup{{"CUDA driver start-up", ms_since_process_start()}};
  gpu::device_count();  // no GPU: an environment error, before loading NCCL
  startup.push_back({"loading NCCL, describing the GPUs", ms_since_process_start()});
  auto lib = NcclLibrary::load(request.settings.nccl_lib);
  const auto machine = probe_machine_facts(*lib);
  startup.push_back({"building the plan, probing the topology", ms_since_process_start()});
  JobSession* job = JobSession::current();
  Plan plan = build_plan(request, machine);
  warn_dropped_sizes(request, plan, events);

  Result result = make_result_header(command_line, lib.get());
  add_gpus(result, plan.gpus);
  if (job != nullptr)  // until the ranks describe their own GPUs (below)
    for (auto& g : result.gpus) g.host = job->hosts().at(static_cast<std::size_t>(g.rank));

  result.topology = probe_topology({});
  attach_cpulists(plan, *result.topology);
  const auto points = planned_bytes(plan);
  if (!options.quiet)
    events.emit(
        make_event(EventKind::stage,
                   fmt::format("{} points on {} GPU{}, about {}", points.size(), plan.nranks(),
                               plan.nranks() == 1 ? "" : "s",
                               format_seconds(estimate_plan_s(
                                   plan, prior_speed(*result.topology, plan.gpus, nccl_settings(plan)))))));

  ReporterSet reporters;
  reporters.add(std::make_unique<ConsoleReporter>(std::cout, options.quiet));
  if (!options.json_path.empty()) reporters.add(std::make_unique<JsonReporter>(options.json_path));
  if (!options.csv_path.empty()) reporters.add(std::make_unique<CsvReporter>(options.csv_path));
  if (!options.quiet)
    reporters.add(
        std::make_unique<ProgressLine>(stderr, points, plan.settings.sampling, plan.settings.check));
  reporters.begin(result);

  // Runs appear in the result as their first point arrives.
  std::map<int, std::size_t> run_slot;
  auto on_point = [&](int index, const Point& point) {
    if (!run_slot.contains(index)) {
      run_slot[index] = result.runs.size();
      result.runs.push_back(make_run(plan, static_cast<std::size_t>(index)));
    }
    auto& run = result.runs[run_slot[index]];
    run.points.push_back(point);
    reporters.point(result, run_slot[index], run.points.size() - 1);
  };
  const auto outcome = run_plan(plan, on_point, events);

  if (!outcome.gpus.empty()) result.gpus = outcome.gpus;
  startup.insert(startup.end(), outcome.startup.begin(), outcome.startup.end());
  startup.push_back({"all workers ended", ms_since_process_start()});
  result.startup = std::move(startup);
  if (options.verbose) print_startup(stderr, result.startup);
  result.finished = now_iso8601();
  result.status = outcome.supervisor.ok ? RunStatus::complete : RunStatus::failed;
  result.failure = outcome.failure;
  reporters.end(result);

  if (!outcome.supervisor.ok) return end_failed_run(options, plan, outcome, events);
  return has_wrong_data(result) ? static_cast<int>(ExitCode::finding) : 0;
}

}  // namespace fb
