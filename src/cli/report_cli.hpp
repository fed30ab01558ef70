#pragma once
#include <CLI/CLI.hpp>
#include <string>

namespace fb {

struct ReportOptions {
  std::string input;
  std::string output;  // "" = stdout
  std::string format;  // html | md | csv; "" = from the output's extension, else md
  bool analyse = false;
};

CLI::App* add_report_subcommand(CLI::App& app, ReportOptions& opts);

struct DoctorOptions {
  bool quick = false;
  std::string gpus;
  std::string out_dir = "fabricbench-doctor";
  std::string nccl_lib;
  double timeout_s = 120;
  bool inject_corruption = false;  // testing aid: plants one wrong element in the verified collectives
};

CLI::App* add_doctor_subcommand(CLI::App& app, DoctorOptions& opts);

}  // namespace fb
