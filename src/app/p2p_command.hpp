#pragma once
#include <string>
#include <vector>

#include "cli/p2p_cli.hpp"
#include "core/events.hpp"

namespace fb {

// What the engine says while it works goes to `events`.
int p2p_command(const P2pOptions& options, const std::vector<std::string>& command_line, EventSink& events);

}  // namespace fb
