#include "app/scale_command.hpp"

#include <iostream>

#include "app/reporter_progress.hpp"
#include "engine/commands/scale_measurement.hpp"
#include "report/json_reporter.hpp"
#include "report/scale_report.hpp"

namespace fb {

int scale_command(const ScaleOptions& o, const std::vector<std::string>& command_line, EventSink& events) {
  const ScaleRequest request = scale_request(o);  // usage errors first, before touching GPU or NCCL
  ReporterSet reporters;
  reporters.add(std::make_unique<ScaleConsoleReporter>(std::cout, request.measure.collectives.at(0),
                                                       request.measure.sizes.at(0)));
  if (!o.measure.json_path.empty()) reporters.add(std::make_unique<JsonReporter>(o.measure.json_path));
  if (!o.measure.csv_path.empty()) reporters.add(std::make_unique<ScaleCsvReporter>(o.measure.csv_path));
  const CommandOutcome outcome = measure_scale(request, command_line, reporter_progress(reporters), events);
  return static_cast<int>(outcome.code);
}

}  // namespace fb
