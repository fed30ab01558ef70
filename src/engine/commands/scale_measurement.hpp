#pragma once
// `fabricbench scale`'s engine entry: one collective at one size on growing groups of GPUs, the
// document with its scaling findings. app/ parses and renders.
#include <string>
#include <vector>

#include "core/events.hpp"
#include "engine/commands/command_outcome.hpp"
#include "request/command_requests.hpp"

namespace fb {

// Each group is announced to `events`, which hears the workers' warnings and a Ctrl-C too; each
// group's run reaches `progress.point` as it ends (point 0; a failed group has none). A failed or
// interrupted group fails the command.
CommandOutcome measure_scale(const ScaleRequest& request, const std::vector<std::string>& command_line,
                             const ResultProgress& progress, EventSink& events);

}  // namespace fb
