#include "app/run_command.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>

#include "app/result_header.hpp"
#include "app/worker.hpp"
#include "bench/plan.hpp"
#include "cli/run_plan_builder.hpp"
#include "comm/nccl_library.hpp"
#include "core/environment.hpp"
#include "core/result_json.hpp"
#include "gpu/runtime.hpp"
#include "launch/protocol.hpp"
#include "launch/supervisor.hpp"
#include "report/console_reporter.hpp"
#include "report/csv_reporter.hpp"
#include "report/json_reporter.hpp"
#include "topo/machine_probe.hpp"

namespace fb {
namespace {

MachineFacts probe_machine(const NcclLibrary& lib) {
  MachineFacts facts;
  const int n = gpu::device_count();
  for (int i = 0; i < n; ++i) {
    const auto p = gpu::device_props(i);
    facts.devices.push_back({p.compute_capability, p.memory_bytes, p.name});
  }
  facts.nccl_version = lib.version_code();
  return facts;
}

// Sizes a collective cannot run because they round to zero elements per rank are said, not hidden.
void warn_dropped_sizes(const Plan& plan) {
  for (const auto& run : plan.runs) {
    const auto elem = dtype_info(run.dtype).size;
    const auto& spec = collective(run.collective);
    std::vector<std::string> dropped;
    for (const auto bytes : plan.sizes)
      if (spec.counts(bytes / elem, plan.nranks()).reported_elements() == 0)
        dropped.push_back(std::to_string(bytes));
    if (!dropped.empty())
      fmt::print(stderr, "fabricbench: note: {} {} skips size(s) {} B: less than one element per rank\n",
                 run.collective, dtype_info(run.dtype).name, fmt::join(dropped, ", "));
  }
}

std::vector<WorkerHandle> start_workers(const Plan& plan) {
  std::vector<WorkerHandle> workers;
  if (plan.launcher == LauncherKind::threads) {
    workers.push_back(spawn_thread(0, [](int fd) { worker_main(fd); }));
    return workers;
  }
  const std::string self = self_executable();
  for (int i = 0; i < process_count(plan); ++i) workers.push_back(spawn_process(i, {self}));
  return workers;
}

std::string who_failed(const Plan& plan, const SupervisorOutcome& o) {
  if (o.failed_workers.empty()) return "the run";
  std::vector<std::string> names;
  for (const int w : o.failed_workers) {
    const auto local = assignment_for(plan, w);
    if (local.ranks.size() == 1)
      names.push_back(fmt::format("rank {} (GPU {})", local.ranks[0], local.devices[0]));
    else
      names.push_back(fmt::format("the in-process worker (ranks 0-{})", plan.nranks() - 1));
  }
  return fmt::format("{}", fmt::join(names, ", "));
}

}  // namespace

int run_command(const RunOptions& options, const std::vector<std::string>& command_line) {
  check_run_options(options);  // usage errors first, before touching GPU or NCCL
  gpu::device_count();         // no GPU: an environment error, before loading NCCL
  auto lib = NcclLibrary::load(options.nccl_lib);
  const auto machine = probe_machine(*lib);
  const Plan plan = build_run_plan(options, machine);
  warn_dropped_sizes(plan);

  Result result = make_result_header(command_line, *lib);
  for (std::size_t r = 0; r < plan.gpus.size(); ++r) {
    const auto p = gpu::device_props(plan.gpus[r]);
    result.gpus.push_back({plan.gpus[r], static_cast<int>(r), p.name, p.pci_bus_id, p.memory_bytes,
                           p.compute_capability, result.host.hostname});
  }

  result.topology = probe_topology({});

  ReporterSet reporters;
  reporters.add(std::make_unique<ConsoleReporter>(std::cout, options.quiet));
  if (!options.json_path.empty()) reporters.add(std::make_unique<JsonReporter>(options.json_path));
  if (!options.csv_path.empty()) reporters.add(std::make_unique<CsvReporter>(options.csv_path));
  reporters.begin(result);

  // Runs appear in the result as their first point arrives.
  std::map<int, std::size_t> run_slot;
  auto on_message = [&](int /*worker*/, const nlohmann::json& m) {
    const auto type = m.at("t").get<std::string>();
    if (type == msg::warn) {
      fmt::print(stderr, "fabricbench: warning: {}\n", m.at("text").get<std::string>());
      return;
    }
    if (type != msg::point) return;
    const int index = m.at("run").get<int>();
    if (!run_slot.contains(index)) {
      const auto& rp = plan.runs.at(static_cast<std::size_t>(index));
      Run run;
      run.collective = rp.collective;
      run.dtype = std::string(dtype_info(rp.dtype).name);
      if (collective(rp.collective).reduces) run.op = std::string(redop_info(rp.op).name);
      run.root = rp.root;
      run.gpus = plan.gpus;
      run.launcher = to_string(plan.launcher);
      run.graph_launches = plan.sampling.graph_launches;
      for (const char* var : {"NCCL_ALGO", "NCCL_PROTO"})
        if (const auto it = result.env.find(var); it != result.env.end()) run.forced[var] = it->second;
      run_slot[index] = result.runs.size();
      result.runs.push_back(std::move(run));
    }
    auto& run = result.runs[run_slot[index]];
    run.points.push_back(m.at("point").get<Point>());
    reporters.point(result, run_slot[index], run.points.size() - 1);
  };

  std::vector<nlohmann::json> starts;
  const int nprocs = process_count(plan);
  for (int i = 0; i < nprocs; ++i)
    starts.push_back({{"t", msg::start}, {"plan", plan}, {"process", i}, {"nprocs", nprocs}});

  Supervisor supervisor(start_workers(plan), plan.timeout_s, on_message);
  const auto outcome = supervisor.run(starts);

  result.finished = now_iso8601();
  result.status = outcome.ok ? "complete" : "failed";
  if (!outcome.ok)
    result.failure =
        fmt::format("{} {} during '{}'", who_failed(plan, outcome), outcome.reason, outcome.step);
  reporters.end(result);

  if (!outcome.ok) {
    fmt::print(stderr, "fabricbench: error: {}\n", result.failure);
    if (!options.json_path.empty())
      fmt::print(stderr, "fabricbench: the points completed before the failure are in {}\n",
                 options.json_path);
    // A worker thread stuck in NCCL cannot be joined: leave without running destructors.
    if (plan.launcher == LauncherKind::threads) {
      std::cout.flush();
      std::fflush(nullptr);
      std::_Exit(static_cast<int>(outcome.code));
    }
    return static_cast<int>(outcome.code);
  }
  for (const auto& run : result.runs)
    for (const auto& p : run.points)
      if (p.wrong > 0) return static_cast<int>(ExitCode::finding);
  return 0;
}

}  // namespace fb
