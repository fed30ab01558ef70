#include "app/algos_command.hpp"

#include <iostream>

#include "engine/commands/algos_measurement.hpp"
#include "report/algos_report.hpp"
#include "report/json_reporter.hpp"

namespace fb {

int algos_command(const AlgosOptions& o, const std::vector<std::string>& command_line, EventSink& events) {
  const AlgosRequest request = algos_request(o);  // usage errors first, before touching GPU or NCCL
  const AlgosOutcome outcome = measure_algos(request, command_line, o.measure.quiet, events);
  ReporterSet reporters;
  reporters.add(std::make_unique<AlgosConsoleReporter>(std::cout, outcome.table));
  if (!o.tuner_csv.empty())
    reporters.add(std::make_unique<TunerCsvReporter>(std::cout, o.tuner_csv, outcome.table, outcome.nodes));
  if (!o.measure.json_path.empty()) reporters.add(std::make_unique<JsonReporter>(o.measure.json_path));
  reporters.end(outcome.command.result);
  return static_cast<int>(outcome.command.code);
}

}  // namespace fb
