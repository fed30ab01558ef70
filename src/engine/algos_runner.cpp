#include "engine/algos_runner.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.hpp"
#include "core/file_io.hpp"
#include "core/interrupt.hpp"
#include "engine/nccl_setup.hpp"
#include "engine/plan_runner.hpp"
#include "engine/sweep_progress.hpp"

namespace fb {
namespace {

namespace fs = std::filesystem;

NcclLogSummary read_logs(const fs::path& dir) {
  NcclLogSummary all;
  for (const auto& entry : fs::directory_iterator(dir)) {
    merge_nccl_logs(all, parse_nccl_log(read_file(entry.path().string())));
  }
  return all;
}

}  // namespace

// NCCL's own choices, transports and channels, from a short logged pass (logging every call
// would slow the timed default sweep, so it runs apart).
NcclLogSummary probe_nccl_choices(const Plan& plan, const std::string& keep_logs, bool quiet,
                                  EventSink& events, std::vector<Point>* points) {
  const fs::path logs = keep_logs.empty()
                            ? fs::temp_directory_path() / fmt::format("fabricbench-nccl-{}", ::getpid())
                            : fs::path(keep_logs);
  fs::create_directories(logs);
  Plan probe = plan;
  probe.settings.sampling = {1, 0, 0, 1, 1, 0, 1.0};
  probe.settings.nccl_env.insert_or_assign("NCCL_DEBUG", "INFO");
  probe.settings.nccl_env.insert_or_assign("NCCL_DEBUG_SUBSYS", "INIT,TUNING");
  probe.settings.nccl_env.insert_or_assign("NCCL_DEBUG_FILE", (logs / "nccl.%h.%p.log").string());
  if (!quiet) events.emit(make_event(EventKind::stage, "reading NCCL's own choices from its log"));
  const auto probed = run_plan(
      probe,
      [&](int, const Point& p) {
        if (points != nullptr) points->push_back(p);
      },
      events);
  end_job_if_failed(probe, probed, events);
  auto log = read_logs(logs);
  if (keep_logs.empty()) fs::remove_all(logs);
  if (const auto gaps = nccl_log_gaps(log); !quiet && !gaps.empty())
    events.emit(make_event(EventKind::note, gaps));
  if (!probed.supervisor.ok && !interrupt_requested())  // interrupted: the caller ends the sweep
    throw Error(probed.supervisor.code, "NCCL's default run failed: " + probed.failure);
  return log;
}

namespace {

// NCCL's default first, then the forced pairs.
std::vector<AlgoConfig> configurations(const std::vector<std::string>& algos,
                                       const std::vector<std::string>& protos, bool one_axis) {
  std::vector<AlgoConfig> configs{{"", "", {}, ""}};
  for (const auto& [a, p] : forced_pairs(algos, protos, one_axis))
    configs.push_back({a == "default" ? "" : a, p == "default" ? "" : p, {}, ""});
  return configs;
}

// The default run carries what NCCL's log said: its set-up, and its choice at each size.
void attach_nccl_choices(Run& run, const NcclLogSummary& log) {
  set_nccl_setup(run, log);
  const auto* sizes = choices_for(log, std::string(collective(run.collective).nccl_log_name));
  if (sizes == nullptr) return;
  for (auto& p : run.points) {
    if (const auto it = sizes->find(p.bytes); it != sizes->end()) {
      p.nccl_algo = it->second.algo;
      p.nccl_proto = it->second.proto;
      p.nccl_channels = it->second.channels.value_or(0);
    }
  }
}

// The points up to `max_bytes`, or the smallest one where none is that small.
void keep_points_up_to(std::vector<PointPlan>& points, std::uint64_t max_bytes) {
  if (points.empty()) return;
  const auto smallest = *std::min_element(
      points.begin(), points.end(), [](const PointPlan& a, const PointPlan& b) { return a.bytes < b.bytes; });
  std::erase_if(points, [&](const PointPlan& p) { return p.bytes > max_bytes; });
  if (points.empty()) points = {smallest};
}

// One configuration's timed sweep in fresh workers. A failed default ends the sweep; a failed
// forced pair is recorded and the others go on. Interrupted, each keeps the points it measured.
Run sweep_configuration(const Plan& plan, AlgoConfig& c, const NcclLogSummary& log,
                        const AlgosSweepOptions& o, EventSink& events) {
  Plan forced = plan;
  if (!c.algo.empty()) forced.settings.nccl_env["NCCL_ALGO"] = c.algo;
  if (!c.proto.empty()) forced.settings.nccl_env["NCCL_PROTO"] = c.proto;
  if ((c.proto == "LL" || c.proto == "LL128") && o.low_latency_max_bytes > 0)
    for (auto& run : forced.runs) keep_points_up_to(run.points, o.low_latency_max_bytes);
  const auto outcome = run_plan(
      forced, [&](int, const Point& p) { c.points.push_back(p); }, events);
  end_job_if_failed(forced, outcome, events);  // in a job a failed pair cannot be skipped
  if (!outcome.supervisor.ok) c.failure = outcome.failure;
  if (c.is_default() && !outcome.supervisor.ok && !interrupt_requested())
    throw Error(outcome.supervisor.code, "NCCL's default sweep failed: " + outcome.failure);
  Run run = make_run(forced, 0);
  run.kind = RunKind::algos;
  run.failure = c.failure;
  run.points = c.points;
  if (c.is_default()) {
    attach_nccl_choices(run, log);
    c.points = run.points;
  }
  return run;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> forced_pairs(const std::vector<std::string>& algos,
                                                              const std::vector<std::string>& protos,
                                                              bool one_axis) {
  std::vector<std::pair<std::string, std::string>> pairs;
  const auto add = [&](const std::string& a, const std::string& p) {
    const std::pair<std::string, std::string> pair{a, p};
    if ((a != "default" || p != "default") && std::find(pairs.begin(), pairs.end(), pair) == pairs.end())
      pairs.push_back(pair);
  };
  if (one_axis) {
    for (const auto& a : algos) add(a, "default");
    for (const auto& p : protos) add("default", p);
    return pairs;
  }
  for (const auto& a : algos)
    for (const auto& p : protos) add(a, p);
  return pairs;
}

AlgosSweep run_algos(const Plan& plan, const std::vector<std::string>& algos,
                     const std::vector<std::string>& protos, const std::string& keep_logs, bool quiet,
                     EventSink& events) {
  return run_algos(plan, algos, protos, AlgosSweepOptions{keep_logs, quiet, 0, false}, events);
}

AlgosSweep run_algos(const Plan& plan, const std::vector<std::string>& algos,
                     const std::vector<std::string>& protos, const AlgosSweepOptions& options,
                     EventSink& events) {
  return sweep_configurations(plan, algos, protos, options,
                              probe_nccl_choices(plan, options.keep_logs, options.quiet, events), events);
}

AlgosSweep sweep_configurations(const Plan& plan, const std::vector<std::string>& algos,
                                const std::vector<std::string>& protos, const AlgosSweepOptions& options,
                                NcclLogSummary log, EventSink& events) {
  AlgosSweep out;
  out.log = std::move(log);
  out.configs = configurations(algos, protos, options.one_axis);
  out.planned = out.configs.size();
  SweepProgress progress(out.configs.size(), events);
  for (std::size_t i = 0; i < out.configs.size() && !interrupt_requested(); ++i) {
    if (!options.quiet) progress.announce(i, fmt::format("sweeping {}", out.configs[i].label()));
    out.runs.push_back(sweep_configuration(plan, out.configs[i], out.log, options, events));
  }
  out.configs.resize(out.runs.size());  // interrupted: only those begun
  return out;
}

}  // namespace fb
