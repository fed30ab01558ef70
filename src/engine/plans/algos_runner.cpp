#include "engine/plans/algos_runner.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "bench/nccl_setup.hpp"
#include "core/error.hpp"
#include "core/interrupt.hpp"
#include "engine/plans/nccl_probe.hpp"
#include "engine/plans/plan_runner.hpp"
#include "engine/plans/sweep_progress.hpp"

namespace fb {
namespace {

// NCCL's default first, then the forced pairs.
std::vector<AlgoConfig> configurations(const std::vector<std::string>& algos,
                                       const std::vector<std::string>& protos, bool one_axis) {
  std::vector<AlgoConfig> configs{{"", "", {}, ""}};
  for (const auto& [a, p] : forced_pairs(algos, protos, one_axis))
    configs.push_back({a == "default" ? "" : a, p == "default" ? "" : p, {}, ""});
  return configs;
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
    attach_nccl_log(run, log);
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
