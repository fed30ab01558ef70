#pragma once
// `fabricbench p2p` output behind the reporter interface: what is about to be measured at the
// start, the matrices and findings at the end (report/p2p_console.hpp); the CSV at the end.
#include <cstdint>
#include <ostream>
#include <string>

#include "report/reporter.hpp"

namespace fb {

// How each figure is sampled, for the opening line.
struct P2pSampling {
  std::uint64_t bytes = 0;  // per copy
  int copies_per_sample = 0;
  int samples = 0;
};

class P2pConsoleReporter final : public Reporter {
 public:
  P2pConsoleReporter(std::ostream& out, P2pSampling sampling) : out_(out), sampling_(sampling) {}
  // result.gpus are the GPUs to be measured.
  void begin(const Result& result) override;
  void end(const Result& result) override;

 private:
  std::ostream& out_;
  P2pSampling sampling_;
};

// One row per measurement (report/p2p_console.hpp's write_p2p_csv), written at the end.
class P2pCsvReporter final : public Reporter {
 public:
  explicit P2pCsvReporter(std::string path) : path_(std::move(path)) {}
  void end(const Result& result) override;

 private:
  std::string path_;
};

}  // namespace fb
