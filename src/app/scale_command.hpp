#pragma once
#include <string>
#include <vector>

#include "cli/scale_cli.hpp"
#include "core/events.hpp"

namespace fb {

// What the engine says while it works goes to `events`.
int scale_command(const ScaleOptions& options, const std::vector<std::string>& command_line,
                  EventSink& events);

}  // namespace fb
