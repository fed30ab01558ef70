#pragma once
#include <CLI/CLI.hpp>
#include <string>

#include "cli/import_flags.hpp"
#include "projection/tp_projection.hpp"

namespace fb {

struct ProjectOptions {
  std::string result;  // a result document with all_reduce curves, or another tool's all_reduce output
  ImportFlags import;  // that output's companions (as `report` reads them)
  bool force = false;  // --force: a --nccl-log that contradicts the output taken anyway, said so
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
  std::string net_busbw;  // --net-busbw GBPS: an all_reduce busbw across hosts, assumed; "" = none
  bool validate = false;
  std::string json_path;
};

CLI::App* add_project_subcommand(CLI::App& app, ProjectOptions& opts);

// Every usage error (shapes, TP list, workload, rates) here, before any file or GPU is read.
// Rates left at 0 when not given (the command measures them).
ProjectionRequest projection_request(const ProjectOptions& opts);

// --net-busbw in GB/s, 0 when not given; a usage error unless positive.
double net_busbw_gbps(const ProjectOptions& opts);

}  // namespace fb
