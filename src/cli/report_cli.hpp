#pragma once
#include <CLI/CLI.hpp>
#include <string>

namespace fb {

struct ReportOptions {
  std::string input;
  std::string output;  // "" = stdout
  std::string format;  // html | md | csv; "" = from the output's extension, else md
  bool analyse = false;
  std::string baseline;      // another result drawn dashed on the HTML busbw chart; "" = none
  std::string expectations;  // --expectations FILE: a site's baseline for the verdicts and "% of expected"
  std::string prometheus;    // --prometheus FILE: the verdict as a node-exporter textfile; "" = none
  std::string host;          // --host NAME: only that host's series in the textfile; "" = every host's
  // Another tool's output (nccl-tests, rccl-tests, the PyTorch script) as `result`: its companions.
  std::string nccl_log;    // --nccl-log FILE: NCCL's NCCL_DEBUG=INFO log of that run
  std::string topo;        // --topo FILE: nvidia-smi topo -m or rocm-smi --showtopo text
  std::string gpu;         // --gpu "8 x H100 80GB HBM3": where the output names no GPU
  std::string collective;  // --collective NAME: where the output does not name its test
  bool force = false;      // --force: a --nccl-log that contradicts the output taken anyway (said so)
};

CLI::App* add_report_subcommand(CLI::App& app, ReportOptions& opts);

}  // namespace fb
