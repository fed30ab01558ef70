#pragma once
#include <string>
#include <vector>

#include "cli/nodes_cli.hpp"
#include "core/events.hpp"

namespace fb {

// What the engine says while it works goes to `events`.
int nodes_command(const NodesOptions& options, const std::vector<std::string>& command_line,
                  EventSink& events);

}  // namespace fb
