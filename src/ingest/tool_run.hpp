#pragma once
// What another tool's output says about one test, as read and before any conversion: the
// intermediate every importer (nccl-tests/rccl-tests stdout, nccl-tests JSON, rccl-tests CSV, the
// PyTorch script) fills and tool_result.hpp turns into the result document. Figures are the
// tool's own, in its own units; a fact the output does not hold stays empty or nullopt.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fb {

// One "#  Rank  0 Group  0 Pid 1417 on vm device  0 [0000:00:06] NVIDIA H200" line.
struct ToolDevice {
  int rank = 0;
  int pid = 0;  // the process that drove it; 0: not printed
  std::string host;
  int device = 0;
  std::string bus_id;  // "0000:00:06.0" where the output gives domain:bus:device; "" otherwise
  std::string name;
};

// A single-operation spread nccl-tests -I prints beside a variant (microseconds).
struct ToolIterations {
  double min_us = 0;
  double max_us = 0;
  double p99_us = 0;
  std::optional<double> p50_us;    // the JSON output only
  std::vector<double> samples_us;  // the JSON output only
};

// One variant (out-of-place or in-place) of one size.
struct ToolPoint {
  std::uint64_t bytes = 0;
  std::uint64_t count = 0;
  std::string type;   // "float"
  std::string redop;  // "sum"; "" when the layout has none
  int root = -1;
  bool root_printed = false;  // the table has a root column (nccl-tests prints -1 for a test without a root)
  bool in_place = false;
  double time_us = 0;  // as the tool reports it: the mean over its timed iterations
  double algbw = 0;    // as printed, GB/s
  double busbw = 0;
  std::optional<std::int64_t> wrong;  // #wrong; nullopt: not checked (N/A) or not a count
  std::optional<ToolIterations> iterations;
  int line = 0;  // where it was read (1-based; 0: not from a text line)
};

struct ToolRun {
  std::string tool;             // "nccl-tests", "rccl-tests", "nccl-tests JSON", "rccl-tests CSV", ...
  std::string tool_version;     // "2.19.6", "develop:3f7f785"; "" when not printed
  std::string library;          // "NCCL" or "RCCL"
  int library_code = 0;         // nccl-library=22809; 0 when not printed
  std::string library_version;  // "2.28.9"; "" when not printed
  std::string collective;       // fabricbench's name ("all_reduce"); "" when the output does not say
  std::string collective_from;  // how it was known ("# Collective test starting", "command line")
  int threads = 0;              // nThread
  int gpus_per_thread = 0;      // nGpus
  int iters = 0;
  int warmup_iters = 0;
  int graph_launches = 0;
  bool cputime = false;  // the time column is CPU time (-C 1)
  int ranks = 0;         // ranks the tool says ran (devices.size() where listed)
  int processes = 0;     // processes the header names (rccl-tests' "nRanks: N" of 2023); 0: not printed
  std::vector<ToolDevice> devices;
  std::vector<ToolPoint> points;
  std::optional<double> avg_busbw;     // "# Avg bus bandwidth"
  std::optional<int> out_of_bounds;    // "# Out of bounds values : N"
  bool wrong_is_max_error = false;     // the old "error" column: a largest difference, not a count
  std::vector<std::string> skipped;    // "line N: why"
  std::vector<std::string> converted;  // conversions the importer made, in words
  std::vector<std::string> unknown;    // what the output does not tell
  std::string first_line_text;         // where the test begins, for messages
  int first_line = 0;
  // The tool's own failure line ("GENOA-06: Test NCCL failure common.cu:392 'unhandled cuda error ...'",
  // "Segmentation fault"): the first seen, its line, and how many failure lines there were in all.
  std::string failure;
  int failure_line = 0;
  int failure_lines = 0;
};

}  // namespace fb
