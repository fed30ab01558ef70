#pragma once
#include <CLI/CLI.hpp>
#include <string>

#include "cli/run_options.hpp"

namespace fb {

struct AlgosOptions {
  RunOptions measure;  // one collective, sizes, data, timing, GPUs, launcher
  std::string algos;   // "" = those NCCL offers for the collective (never NVLS while NCCL_NVLS_ENABLE=0)
  std::string protos = "LL,LL128,Simple";
  std::string tuner_csv;
  std::string keep_logs;  // directory to keep NCCL's debug logs in
};

CLI::App* add_algos_subcommand(CLI::App& app, AlgosOptions& opts);

struct ScaleOptions {
  RunOptions measure;  // one collective, data, timing, launcher
  std::string size = "1G";
  std::string counts;  // "" = 1, 2, 4, ... up to all GPUs
  std::string placement = "both";
};

CLI::App* add_scale_subcommand(CLI::App& app, ScaleOptions& opts);

}  // namespace fb
