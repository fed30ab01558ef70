#pragma once
// What `run` (and algos and scale) read from the command line. The flags that are one typed
// value bind straight into the request (cli/measure_options.cpp); the texts kept here only make
// sense together or need a table (the size sweep, the lists, --gpus) and are parsed into the same
// request once, by cli/run_request.hpp.
#include <string>
#include <vector>

#include "request/collective_request.hpp"

namespace fb {

struct RunOptions {
  RunRequest request;
  std::vector<std::string> collectives;  // as typed: "all" expands
  std::string min_bytes = "1M";
  std::string max_bytes = "1G";
  double step_factor = 0;  // 0: not given (defaults to 2 unless a step in bytes is given)
  std::string step_bytes;
  std::vector<std::string> sizes;
  std::string dtype = "float";
  std::string op = "sum";
  std::string gpus;  // "" = all; "N" = first N; "0,2" or "0-3" = those devices
  std::string launcher = "processes";
  std::string in_place = "off";  // off | on | both
  // Output, not part of the measurement.
  std::string json_path;
  std::string csv_path;
  bool quiet = false;
  bool verbose = false;  // say where the start-up time went
};

}  // namespace fb
