#pragma once
// --rendezvous, --nnodes and --nproc-per-node: how the ranks of a job meet where the launcher does
// not say it (an Indexed Job, MPI without fabricbench's MPI plugin) and how many ranks a node's one
// process starts. Every rank needs them before the command line is parsed (the ranks other than 0
// never parse it): main() reads them from the raw arguments (comm/launch_env's apply_job_flags);
// CLI11 declares them here for --help and checks their form.
#include <CLI/CLI.hpp>

namespace fb {

void add_job_flags(CLI::App& app);

}  // namespace fb
