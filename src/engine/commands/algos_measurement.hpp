#pragma once
// `fabricbench algos`'s engine entry: NCCL's own choice against every forced algorithm/protocol,
// the document and the table the reporters print. app/ parses and renders.
#include <string>
#include <vector>

#include "analyse/run/algo_selection.hpp"
#include "core/events.hpp"
#include "engine/commands/command_outcome.hpp"
#include "request/command_requests.hpp"

namespace fb {

struct AlgosOutcome {
  CommandOutcome command;  // the document: one run per configuration, forced-beats-default findings
  AlgosTable table;
  int nodes = 1;  // hosts the job spans (1 when fabricbench started its own workers): a tuner file's nNodes
};

// A warning for NCCL_ALGO/NCCL_PROTO set in the environment, the estimate and each configuration
// (unless `quiet`), the workers' warnings and a Ctrl-C go to `events`. Throws when NCCL's default
// sweep fails; a forced configuration that fails is recorded in the table.
AlgosOutcome measure_algos(const AlgosRequest& request, const std::vector<std::string>& command_line,
                           bool quiet, EventSink& events);

}  // namespace fb
