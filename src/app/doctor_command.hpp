#pragma once
#include <string>
#include <vector>

#include "cli/doctor_cli.hpp"

namespace fb {

int doctor_command(const DoctorOptions& options, const std::vector<std::string>& command_line);

}  // namespace fb
