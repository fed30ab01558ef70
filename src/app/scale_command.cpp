#include "app/scale_command.hpp"

#include <fmt/format.h>

#include <iostream>

#include "analyse/verdicts.hpp"
#include "core/environment.hpp"
#include "core/error.hpp"
#include "core/interrupt.hpp"
#include "engine/machine_facts.hpp"
#include "engine/result_header.hpp"
#include "engine/scale_runner.hpp"
#include "gpu/runtime.hpp"
#include "report/json_reporter.hpp"
#include "report/scale_report.hpp"
#include "topo/machine_probe.hpp"

namespace fb {

int scale_command(const ScaleOptions& o, const std::vector<std::string>& command_line, EventSink& events) {
  const ScaleRequest request = scale_request(o);  // usage errors first, before touching GPU or NCCL
  gpu::device_count();                            // no GPU: an environment error, before loading NCCL
  auto lib = NcclLibrary::load(request.measure.settings.nccl_lib);
  const auto facts = probe_machine_facts(*lib);

  Result result = make_result_header(command_line, lib.get());
  result.topology = probe_topology({});
  ReporterSet reporters;
  reporters.add(std::make_unique<ScaleConsoleReporter>(std::cout, request.measure.collectives.at(0),
                                                       request.measure.sizes.at(0)));
  if (!o.measure.json_path.empty()) reporters.add(std::make_unique<JsonReporter>(o.measure.json_path));
  if (!o.measure.csv_path.empty()) reporters.add(std::make_unique<ScaleCsvReporter>(o.measure.csv_path));
  reporters.begin(result);

  bool failed = false;
  {
    const InterruptScope ctrl_c;  // Ctrl-C ends the scaling, keeping the groups measured
    run_scaling(
        request, facts, *result.topology,
        [&](const Run& run) {
          result.runs.push_back(run);
          failed = failed || !run.failure.empty();
          if (!run.points.empty()) reporters.point(result, result.runs.size() - 1, 0);
        },
        events);
  }
  result.findings = check_scaling(result);
  result.finished = now_iso8601();
  result.status = RunStatus::complete;
  if (interrupt_requested()) {
    failed = true;
    mark_interrupted(result, fmt::format("interrupted after {} GPU group(s)", result.runs.size()), events);
  }
  reporters.end(result);
  return failed ? static_cast<int>(ExitCode::run_failed) : 0;
}

}  // namespace fb
