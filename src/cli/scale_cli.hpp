#pragma once
#include <CLI/CLI.hpp>
#include <string>

#include "cli/run_options.hpp"
#include "request/command_requests.hpp"

namespace fb {

struct ScaleOptions {
  RunOptions measure;  // one collective, data, timing, launcher
  std::string size = "1G";
  std::string counts;  // "" = 1, 2, 4, ... up to all GPUs
  std::string placement = "both";
};

CLI::App* add_scale_subcommand(CLI::App& app, ScaleOptions& opts);

// Usage errors (size, counts, one collective, no --gpus) here, before any GPU is touched.
ScaleRequest scale_request(const ScaleOptions& opts);

}  // namespace fb
