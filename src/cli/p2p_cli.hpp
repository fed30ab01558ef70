#pragma once
#include <CLI/CLI.hpp>
#include <string>

#include "request/command_requests.hpp"

namespace fb {

struct P2pOptions {
  P2pRequest request;  // the typed flags bind here; the texts below are parsed into it
  std::string gpus;
  std::string size = "512M";
  std::string latency_size = "2M";
  std::string latency_stride = "256";
  std::string json_path;
  std::string csv_path;
  bool quiet = false;
};

CLI::App* add_p2p_subcommand(CLI::App& app, P2pOptions& opts);

// The settings from the options: usage errors here, before any GPU is touched.
P2pRequest p2p_request(const P2pOptions& opts);

}  // namespace fb
