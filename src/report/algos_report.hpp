#pragma once
// `fabricbench algos` output: NCCL's choice against every forced algorithm/protocol, size by
// size, on the console; the winners as a tuner-plugin file.
#include <ostream>
#include <string>
#include <vector>

#include "analyse/run/algo_selection.hpp"
#include "report/reporter.hpp"

namespace fb {

// The winner per size, with NCCL's own choice at that size from the default configuration.
std::vector<SizeWinner> winners_with_nccl_choice(const std::vector<AlgoConfig>& configs);

// The header, the grid of busbw per size and configuration, then the findings.
class AlgosConsoleReporter final : public Reporter {
 public:
  AlgosConsoleReporter(std::ostream& out, AlgosTable table) : out_(out), table_(std::move(table)) {}
  void end(const Result& result) override;

 private:
  std::ostream& out_;
  AlgosTable table_;
};

// NCCL's example tuner plugin configuration (NCCL_TUNER_CONFIG_FILE) from the configurations
// that name both halves of a choice, and a line on `out` saying where it went.
class TunerCsvReporter final : public Reporter {
 public:
  TunerCsvReporter(std::ostream& out, std::string path, AlgosTable table, int nnodes)
      : out_(out), path_(std::move(path)), table_(std::move(table)), nnodes_(nnodes) {}
  void end(const Result& result) override;

 private:
  std::ostream& out_;
  std::string path_;
  AlgosTable table_;
  int nnodes_;
};

}  // namespace fb
