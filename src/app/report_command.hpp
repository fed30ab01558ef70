#pragma once
#include "cli/report_cli.hpp"

namespace fb {

int report_command(const ReportOptions& options);

}  // namespace fb
