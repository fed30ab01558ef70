#pragma once
#include <string>
#include <vector>

#include "cli/topo_cli.hpp"

namespace fb {

int topo_command(const TopoOptions& options, const std::vector<std::string>& command_line);

}  // namespace fb
