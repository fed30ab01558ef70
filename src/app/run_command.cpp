#include "app/run_command.hpp"

#include <fmt/format.h>

#include <iostream>

#include "app/reporter_progress.hpp"
#include "cli/run_request.hpp"
#include "engine/commands/run_measurement.hpp"
#include "report/console_reporter.hpp"
#include "report/csv_reporter.hpp"
#include "report/json_reporter.hpp"
#include "report/progress_line.hpp"
#include "report/startup_report.hpp"

namespace fb {
namespace {

// Every point's size in the order the plan measures them (the progress line's denominator).
std::vector<std::uint64_t> planned_bytes(const Plan& plan) {
  std::vector<std::uint64_t> bytes;
  for (const auto& run : plan.runs)
    for (const auto& p : run.points) bytes.push_back(p.bytes);
  return bytes;
}

ReporterSet file_reporters(const RunOptions& options) {
  ReporterSet reporters;
  reporters.add(std::make_unique<ConsoleReporter>(std::cout, options.quiet));
  if (!options.json_path.empty()) reporters.add(std::make_unique<JsonReporter>(options.json_path));
  if (!options.csv_path.empty()) reporters.add(std::make_unique<CsvReporter>(options.csv_path));
  return reporters;
}

}  // namespace

int run_command(const RunOptions& options, const std::vector<std::string>& command_line, EventSink& events) {
  const RunRequest request = run_request(options);  // usage errors first, before touching GPU or NCCL
  ReporterSet reporters = file_reporters(options);
  RunProgress progress{
      .planned =
          [&](const Plan& plan) {
            if (!options.quiet)
              reporters.add(std::make_unique<ProgressLine>(events, planned_bytes(plan),
                                                           plan.settings.sampling, plan.settings.check));
          },
      .result = reporter_progress(reporters),
      .announce = !options.quiet,
  };
  progress.result.ended = [&](const Result& r) {
    if (options.verbose)
      for (auto& line : startup_lines(r.startup)) events.emit(make_event(EventKind::detail, std::move(line)));
    reporters.end(r);
    if (r.status == RunStatus::failed && !options.json_path.empty())
      events.emit(
          make_event(EventKind::stage,
                     fmt::format("the points completed before the failure are in {}", options.json_path)));
  };
  return static_cast<int>(measure_run(request, command_line, progress, events).code);
}

}  // namespace fb
