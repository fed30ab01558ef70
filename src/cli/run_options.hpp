#pragma once
// Raw options of `fabricbench run`, as typed by the user (turned into a request by cli/run_request.hpp).
#include <limits>
#include <string>
#include <vector>

namespace fb {

// -n / -w left out: batches and warm-up sized by time (bench/sampler.hpp).
inline constexpr int kNotGiven = std::numeric_limits<int>::min();

struct RunOptions {
  std::vector<std::string> collectives;
  std::string min_bytes = "1M";
  std::string max_bytes = "1G";
  double step_factor = 0;  // 0: not given (defaults to 2 unless a step in bytes is given)
  std::string step_bytes;
  std::vector<std::string> sizes;
  int iters = kNotGiven;
  int warmup = kNotGiven;
  int check = 0;
  int graph_launches = 0;
  std::string dtype = "float";
  std::string op = "sum";
  int root = 0;
  std::string gpus;  // "" = all; "N" = first N; "0,2" or "0-3" = those devices
  std::string launcher = "processes";
  std::string cpu_bind = "none";  // none | numa | core
  std::string alloc = "nccl";     // nccl | runtime
  std::string fill = "pattern";   // pattern | zeros
  std::string in_place = "off";   // off | on | both
  int min_batches = 6;
  int max_batches = 200;
  double target_ci = 0.01;
  double max_time_s = 1.0;
  double timeout_s = 120;
  std::string nccl_lib;
  std::string json_path;
  std::string csv_path;
  bool quiet = false;
  bool verbose = false;  // say where the start-up time went
  bool inject_corruption = false;
};

}  // namespace fb
