#pragma once
// The console table, one row per point as it completes (nccl-tests' columns, with units).
#include <ostream>

#include "report/reporter.hpp"

namespace fb {

class ConsoleReporter final : public Reporter {
 public:
  explicit ConsoleReporter(std::ostream& out, bool quiet = false) : out_(out), quiet_(quiet) {}
  void begin(const Result& result) override;
  void point(const Result& result, std::size_t run, std::size_t point) override;
  void end(const Result& result) override;

 private:
  std::ostream& out_;
  bool quiet_;
};

}  // namespace fb
