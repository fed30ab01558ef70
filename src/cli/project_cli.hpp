#pragma once
#include <CLI/CLI.hpp>
#include <string>

#include "projection/tp_projection.hpp"

namespace fb {

struct ProjectOptions {
  std::string result;  // a saved result document with all_reduce curves
  std::string model;   // a preset name, or "list"
  std::string shape_file;
  // Shape flags as typed, "" when not given: they override the preset's values.
  std::string hidden, layers, heads, kv_heads, ffn;
  std::string dtype;
  std::string tp = "1,2,4,8";
  std::string batch = "1", prompt = "2048", decode = "128";
  std::string gemm_tflops, hbm_gbps;  // "" = measure on GPU 0
  std::string pays_share = "0.5";
  bool overlap = false;
  bool assume = false;
  bool validate = false;
  std::string json_path;
};

CLI::App* add_project_subcommand(CLI::App& app, ProjectOptions& opts);

// Every usage error (shapes, TP list, workload, rates) here, before any file or GPU is read.
// Rates left at 0 when not given (the command measures them).
ProjectionRequest projection_request(const ProjectOptions& opts);

}  // namespace fb
