#pragma once
#include <string>
#include <vector>

#include "cli/report_cli.hpp"

namespace fb {

int report_command(const ReportOptions& options);
int doctor_command(const DoctorOptions& options, const std::vector<std::string>& command_line);

}  // namespace fb
