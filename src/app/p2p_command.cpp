#include "app/p2p_command.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <iostream>

#include "analyse/p2p_analysis.hpp"
#include "bench/p2p_bench.hpp"
#include "core/environment.hpp"
#include "core/error.hpp"
#include "core/interrupt.hpp"
#include "core/units.hpp"
#include "engine/estimates.hpp"
#include "engine/plan_builder.hpp"
#include "engine/result_header.hpp"
#include "gpu/runtime.hpp"
#include "report/json_reporter.hpp"
#include "report/p2p_reporters.hpp"
#include "topo/machine_probe.hpp"

namespace fb {

int p2p_command(const P2pOptions& o, const std::vector<std::string>& command_line, EventSink& events) {
  const P2pRequest request = p2p_request(o);  // usage errors here, before any GPU is touched
  const int visible = gpu::device_count();    // no GPU: environment error
  Result result = make_result_header(command_line, nullptr);
  result.topology = probe_topology({});
  const P2pPlan plan = build_p2p_plan(request, visible, *result.topology);
  add_gpus(result, plan.gpus);
  if (plan.gpus.size() == 1 && plan.pairs)
    events.emit(make_event(EventKind::note, "one GPU selected: measuring host<->device and its memory only"));
  const double estimate_s = estimate_p2p_s(plan, *result.topology);
  if (!o.quiet)
    events.emit(make_event(
        EventKind::stage,
        fmt::format("p2p on {} GPU{}, {} per copy, about {}", plan.gpus.size(),
                    plan.gpus.size() == 1 ? "" : "s", format_bytes(plan.bytes), format_seconds(estimate_s))));

  ReporterSet reporters;
  reporters.add(std::make_unique<P2pConsoleReporter>(
      std::cout, P2pSampling{plan.bytes, plan.copies_per_sample, plan.samples}));
  if (!o.json_path.empty()) reporters.add(std::make_unique<JsonReporter>(o.json_path));
  if (!o.csv_path.empty()) reporters.add(std::make_unique<P2pCsvReporter>(o.csv_path));
  reporters.begin(result);

  const auto start = std::chrono::steady_clock::now();
  const ProgressFn progress = [&](const std::string& step) {
    if (o.quiet) return;
    const double so_far = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    events.emit(make_event(EventKind::stage,
                           fmt::format("measuring {} ({:.0f} s so far, about {} left)", step, so_far,
                                       format_seconds(std::max(0.1, estimate_s - so_far)))));
  };
  bool stopped = false;
  {
    const InterruptScope ctrl_c;  // Ctrl-C ends the measuring, keeping what was measured
    result.p2p = run_p2p(plan, progress, interrupt_requested, stopped);
  }
  attach_p2p_ceilings(result.p2p, *result.topology);
  result.findings = check_p2p(result.p2p, *result.topology, request.margin);
  result.finished = now_iso8601();
  result.status = RunStatus::complete;
  if (stopped)
    mark_interrupted(result, fmt::format("interrupted after {} measurement(s)", result.p2p.size()), events);
  reporters.end(result);
  if (stopped) return static_cast<int>(ExitCode::run_failed);
  return has_error_finding(result.findings) ? static_cast<int>(ExitCode::finding) : 0;
}

}  // namespace fb
