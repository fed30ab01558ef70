#pragma once
#include <string>
#include <vector>

#include "cli/scale_cli.hpp"

namespace fb {

int scale_command(const ScaleOptions& options, const std::vector<std::string>& command_line);

}  // namespace fb
