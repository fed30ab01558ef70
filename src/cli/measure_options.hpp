#pragma once
// Flags shared by the commands that measure collectives (run, algos, scale), declared once.
#include <CLI/CLI.hpp>

#include "cli/run_options.hpp"

namespace fb {

void add_size_options(CLI::App* app, RunOptions& o);
// -d -o -r always; --in-place and -c when `verification` is set.
void add_data_options(CLI::App* app, RunOptions& o, bool verification);
// Without `verification` the data options still parse -c and --in-place (hidden): this refuses them,
// naming `command`.
void refuse_run_only_flags(const RunOptions& o, const char* command);
void add_timing_options(CLI::App* app, RunOptions& o);
// --gpus --timeout --nccl-lib --allow-mismatch always; --launcher when `launcher` is set.
void add_launch_options(CLI::App* app, RunOptions& o, bool launcher);
// --allow-mismatch: a job whose hosts disagree on what NCCL needs alike still runs (engine/job_preflight).
CLI::Option* add_allow_mismatch_flag(CLI::App* app, RunSettings& settings);

}  // namespace fb
