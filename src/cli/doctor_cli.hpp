#pragma once
#include <CLI/CLI.hpp>
#include <string>

#include "bench/request.hpp"

namespace fb {

struct DoctorOptions {
  bool quick = false;
  std::string gpus;
  std::string out_dir = "fabricbench-doctor";
  std::string nccl_lib;
  double timeout_s = 120;
  bool inject_corruption = false;  // testing aid: plants one wrong element in the verified collectives
};

CLI::App* add_doctor_subcommand(CLI::App& app, DoctorOptions& opts);

DoctorRequest doctor_request(const DoctorOptions& opts);

}  // namespace fb
