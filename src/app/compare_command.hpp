#pragma once
#include "cli/compare_cli.hpp"

namespace fb {

int compare_command(const CompareOptions& options);

}  // namespace fb
