#pragma once
#include <string>
#include <vector>

#include "cli/run_options.hpp"

namespace fb {

// `fabricbench run`: validates, launches the workers, reports. Returns the exit code.
int run_command(const RunOptions& options, const std::vector<std::string>& command_line);

}  // namespace fb
