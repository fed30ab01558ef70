#pragma once
#include <string>
#include <vector>

#include "cli/project_cli.hpp"

namespace fb {

// `fabricbench project`: the tensor-parallel projection from a saved result's all_reduce curves
// (docs/projection.md).
int project_command(const ProjectOptions& opts, const std::vector<std::string>& command_line);

}  // namespace fb
