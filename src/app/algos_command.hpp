#pragma once
#include <string>
#include <vector>

#include "cli/algos_cli.hpp"

namespace fb {

int algos_command(const AlgosOptions& options, const std::vector<std::string>& command_line);

}  // namespace fb
