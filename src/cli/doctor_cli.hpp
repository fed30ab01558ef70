#pragma once
#include <CLI/CLI.hpp>
#include <optional>
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
  std::optional<double> budget_s;  // not given: the mode's default (kQuickBudgetS or kThoroughBudgetS)
};

// Default --budget: quick aims at issue 12's healthy target (20 s on 2 x H200: the full quick
// grid took 24 s there, so the budget cuts the forced LL/LL128 points above 16 MiB first);
// slow fabrics are cut further. Thorough is a sweep of every size and protocol.
inline constexpr double kQuickBudgetS = 20;
inline constexpr double kThoroughBudgetS = 600;

CLI::App* add_doctor_subcommand(CLI::App& app, DoctorOptions& opts);

DoctorRequest doctor_request(const DoctorOptions& opts);

}  // namespace fb
