#pragma once
#include <CLI/CLI.hpp>
#include <string>

#include "cli/run_options.hpp"
#include "request/command_requests.hpp"

namespace fb {

struct NodesOptions {
  RunOptions measure;  // one collective, data, timing, launch
  std::string size = "64M";
  std::string mode = "auto";
  std::string exclude_file;
  NodesRequest request;  // the typed values bind here straight
};

CLI::App* add_nodes_subcommand(CLI::App& app, NodesOptions& opts);

// Usage errors (size, one collective, the sampling numbers) here, before any GPU is touched.
NodesRequest nodes_request(const NodesOptions& opts);

}  // namespace fb
