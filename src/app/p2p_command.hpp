#pragma once
#include <string>
#include <vector>

#include "cli/p2p_cli.hpp"

namespace fb {

int p2p_command(const P2pOptions& options, const std::vector<std::string>& command_line);

}  // namespace fb
