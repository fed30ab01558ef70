#pragma once
#include <string>
#include <vector>

#include "cli/run_options.hpp"
#include "core/events.hpp"

namespace fb {

// `fabricbench run`: validates, launches the workers, reports; what the engine says while it works
// goes to `events`. Returns the exit code.
int run_command(const RunOptions& options, const std::vector<std::string>& command_line, EventSink& events);

}  // namespace fb
