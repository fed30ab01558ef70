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
  double budget_s = 0;             // 0: the mode's default (kQuickBudgetS or kThoroughBudgetS)
};

// Default --budget: quick fits issue 12's targets (healthy 20 s, SHM 45 s, socket 60 s) with
// room for a 25% estimate error; thorough is a sweep of every size and protocol.
inline constexpr double kQuickBudgetS = 40;
inline constexpr double kThoroughBudgetS = 600;

CLI::App* add_doctor_subcommand(CLI::App& app, DoctorOptions& opts);

DoctorRequest doctor_request(const DoctorOptions& opts);

}  // namespace fb
