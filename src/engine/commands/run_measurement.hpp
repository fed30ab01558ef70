#pragma once
// `fabricbench run`'s engine entry: NCCL loaded, the machine probed, the plan built and run, the
// document assembled. app/ parses the flags into the request and renders what comes back.
#include <functional>
#include <string>
#include <vector>

#include "bench/plan.hpp"
#include "core/events.hpp"
#include "engine/commands/command_outcome.hpp"
#include "request/collective_request.hpp"

namespace fb {

struct RunProgress {
  std::function<void(const Plan&)> planned;  // the plan the workers receive, before the header
  ResultProgress result;
  bool announce = true;  // say how many points and about how long, before the first
};

// The estimate (when announced), sizes a collective skips, the workers' warnings,
// a failure and the ending of a failed job go to `events`. A failed run ends with its failure's
// exit code (after `progress.result.ended`); wrong data is a finding.
CommandOutcome measure_run(const RunRequest& request, const std::vector<std::string>& command_line,
                           const RunProgress& progress, EventSink& events);

}  // namespace fb
