#pragma once
// `fabricbench p2p`'s engine entry: every GPU pair and host link copied and timed, each judged
// against its link's ceiling. app/ parses and renders.
#include <functional>
#include <string>
#include <vector>

#include "bench/p2p_plan.hpp"
#include "core/events.hpp"
#include "engine/commands/command_outcome.hpp"
#include "request/command_requests.hpp"

namespace fb {

struct P2pProgress {
  std::function<void(const P2pPlan&)> planned;  // the GPUs and sampling, before the header
  ResultProgress result;                        // no point callbacks: p2p has no collective points
  bool announce = true;                         // the estimate and each step, with the time left
};

// A Ctrl-C fails the command, keeping what was measured; an error-level finding is a finding.
CommandOutcome measure_p2p(const P2pRequest& request, const std::vector<std::string>& command_line,
                           const P2pProgress& progress, EventSink& events);

}  // namespace fb
