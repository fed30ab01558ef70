#pragma once
#include <CLI/CLI.hpp>

#include "cli/run_options.hpp"

namespace fb {

// Declares `fabricbench run` and its flags (nccl-tests compatible where they overlap).
CLI::App* add_run_subcommand(CLI::App& app, RunOptions& opts);

}  // namespace fb
