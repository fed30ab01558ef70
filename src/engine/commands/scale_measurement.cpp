#include "engine/commands/scale_measurement.hpp"

#include <fmt/format.h>

#include "analyse/judge.hpp"
#include "core/environment.hpp"
#include "core/interrupt.hpp"
#include "engine/machine/machine_facts.hpp"
#include "engine/machine/result_header.hpp"
#include "engine/plans/scale_runner.hpp"
#include "topo/machine_probe.hpp"

namespace fb {

CommandOutcome measure_scale(const ScaleRequest& request, const std::vector<std::string>& command_line,
                             const ResultProgress& progress, EventSink& events) {
  const OpenedMachine machine = open_machine(request.measure.settings.nccl_lib);
  Result result = make_result_header(command_line, machine.lib.get());
  result.topology = probe_topology({});
  progress.begun(result);

  bool failed = false;
  {
    const InterruptScope ctrl_c;  // Ctrl-C ends the scaling, keeping the groups measured
    run_scaling(
        request, machine.facts, *result.topology,
        [&](const Run& run) {
          result.runs.push_back(run);
          failed = failed || !run.failure.empty();
          if (!run.points.empty()) progress.point(result, result.runs.size() - 1, 0);
        },
        events);
  }
  result.finished = now_iso8601();
  result.status = RunStatus::complete;
  if (interrupt_requested()) {
    failed = true;
    mark_interrupted(result, fmt::format("interrupted after {} GPU group(s)", result.runs.size()), events);
  }
  judge(result);
  progress.ended(result);
  return {std::move(result), failed ? ExitCode::run_failed : ExitCode::ok};
}

}  // namespace fb
