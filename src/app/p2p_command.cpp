#include "app/p2p_command.hpp"

#include <iostream>

#include "app/reporter_progress.hpp"
#include "engine/commands/p2p_measurement.hpp"
#include "report/json_reporter.hpp"
#include "report/p2p_reporters.hpp"

namespace fb {

int p2p_command(const P2pOptions& o, const std::vector<std::string>& command_line, EventSink& events) {
  const P2pRequest request = p2p_request(o);  // usage errors here, before any GPU is touched
  ReporterSet reporters;
  const P2pProgress progress{
      .planned =
          [&](const P2pPlan& plan) {
            reporters.add(std::make_unique<P2pConsoleReporter>(
                std::cout, P2pSampling{plan.bytes, plan.copies_per_sample, plan.samples}));
            if (!o.json_path.empty()) reporters.add(std::make_unique<JsonReporter>(o.json_path));
            if (!o.csv_path.empty()) reporters.add(std::make_unique<P2pCsvReporter>(o.csv_path));
          },
      .result = reporter_progress(reporters),
      .announce = !o.quiet,
  };
  return static_cast<int>(measure_p2p(request, command_line, progress, events).code);
}

}  // namespace fb
