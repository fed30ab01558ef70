#pragma once
// One CSV row per point, appended and flushed as points complete. Units are in the header.
#include <fstream>
#include <string>

#include "report/reporter.hpp"

namespace fb {

class CsvReporter final : public Reporter {
 public:
  // Opens (truncates) `path`; throws Error(run_failed) when it cannot.
  explicit CsvReporter(const std::string& path);
  // Writes to an existing stream (tests).
  explicit CsvReporter(std::ostream& out) : out_(&out) {}
  void begin(const Result& result) override;
  void point(const Result& result, std::size_t run, std::size_t point) override;

 private:
  std::ofstream file_;
  std::ostream* out_;
};

}  // namespace fb
