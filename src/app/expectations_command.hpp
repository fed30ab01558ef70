#pragma once
#include "cli/expectations_cli.hpp"

namespace fb {

int expectations_command(const ExpectationsOptions& o);

}  // namespace fb
