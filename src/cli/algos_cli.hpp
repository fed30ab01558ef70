#pragma once
#include <CLI/CLI.hpp>
#include <string>

#include "cli/run_options.hpp"
#include "request/command_requests.hpp"

namespace fb {

struct AlgosOptions {
  RunOptions measure;  // one collective, sizes, data, timing, GPUs, launcher
  std::string algos;   // "" = those NCCL offers for the collective (never NVLS while NCCL_NVLS_ENABLE=0)
  std::string protos = "LL,LL128,Simple";
  std::string tuner_csv;
  AlgosRequest request;  // --keep-logs binds here; algos_request fills the rest
};

CLI::App* add_algos_subcommand(CLI::App& app, AlgosOptions& opts);

// Usage errors (names, lists, one collective) here, before any GPU is touched.
AlgosRequest algos_request(const AlgosOptions& opts);

}  // namespace fb
