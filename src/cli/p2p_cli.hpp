#pragma once
#include <CLI/CLI.hpp>
#include <string>

#include "bench/request.hpp"

namespace fb {

struct P2pOptions {
  std::string gpus;
  std::string size = "512M";
  int copies = 16;
  int samples = 5;
  bool no_host = false;
  bool no_pairs = false;
  bool no_latency = false;
  double margin = 0.10;
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
