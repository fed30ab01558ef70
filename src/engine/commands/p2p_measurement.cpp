#include "engine/commands/p2p_measurement.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "analyse/judge.hpp"
#include "analyse/run/p2p_analysis.hpp"
#include "bench/p2p_bench.hpp"
#include "core/environment.hpp"
#include "core/interrupt.hpp"
#include "core/units.hpp"
#include "engine/machine/result_header.hpp"
#include "engine/plans/plan_builder.hpp"
#include "engine/pricing/estimates.hpp"
#include "gpu/runtime.hpp"
#include "topo/machine_probe.hpp"

namespace fb {
namespace {

// Each step as it begins, with the time so far and about how long is left.
ProgressFn step_announcer(double estimate_s, bool announce, EventSink& events) {
  const auto start = std::chrono::steady_clock::now();
  return [=, &events](const std::string& step) {
    if (!announce) return;
    const double so_far = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    events.emit(make_event(EventKind::stage,
                           fmt::format("measuring {} ({:.0f} s so far, about {} left)", step, so_far,
                                       format_seconds(std::max(0.1, estimate_s - so_far)))));
  };
}

void announce_plan(const P2pPlan& plan, double estimate_s, EventSink& events) {
  events.emit(make_event(
      EventKind::stage,
      fmt::format("p2p on {} GPU{}, {} per copy, about {}", plan.gpus.size(),
                  plan.gpus.size() == 1 ? "" : "s", format_bytes(plan.bytes), format_seconds(estimate_s))));
}

}  // namespace

CommandOutcome measure_p2p(const P2pRequest& request, const std::vector<std::string>& command_line,
                           const P2pProgress& progress, EventSink& events) {
  const int visible = gpu::device_count();  // no GPU: environment error
  Result result = make_result_header(command_line, nullptr);
  result.topology = probe_topology({});
  const P2pPlan plan = build_p2p_plan(request, visible, *result.topology);
  add_gpus(result, plan.gpus);
  if (plan.gpus.size() == 1 && plan.pairs)
    events.emit(make_event(EventKind::note, "one GPU selected: measuring host<->device and its memory only"));
  const double estimate_s = estimate_p2p_s(plan, *result.topology);
  if (progress.announce) announce_plan(plan, estimate_s, events);
  progress.planned(plan);
  progress.result.begun(result);

  bool stopped = false;
  {
    const InterruptScope ctrl_c;  // Ctrl-C ends the measuring, keeping what was measured
    result.p2p =
        run_p2p(plan, step_announcer(estimate_s, progress.announce, events), interrupt_requested, stopped);
  }
  attach_p2p_ceilings(result.p2p, *result.topology);
  result.finished = now_iso8601();
  result.status = RunStatus::complete;
  if (stopped)
    mark_interrupted(result, fmt::format("interrupted after {} measurement(s)", result.p2p.size()), events);
  JudgeOptions judging;
  judging.peer_margin = request.margin;
  judge(result, judging);
  progress.result.ended(result);
  ExitCode code = has_error_finding(result.findings) ? ExitCode::finding : ExitCode::ok;
  if (stopped) code = ExitCode::run_failed;
  return {std::move(result), code};
}

}  // namespace fb
