#pragma once
// `fabricbench scale` output: the table on the console and one CSV row per group, both read
// from the document's runs of kind "scale" (one per count and placement, in measuring order).
#include <cstdint>
#include <ostream>
#include <string>

#include "report/reporter.hpp"

namespace fb {

// The table, then the findings, once the last group is measured.
class ScaleConsoleReporter final : public Reporter {
 public:
  // `bytes`: the size asked for (each group's points carry the size as rounded for it).
  ScaleConsoleReporter(std::ostream& out, std::string collective, std::uint64_t bytes)
      : out_(out), collective_(std::move(collective)), bytes_(bytes) {}
  void end(const Result& result) override;

 private:
  std::ostream& out_;
  std::string collective_;
  std::uint64_t bytes_;
};

// Header and one row per group; scaling efficiency as a fraction.
std::string scale_csv(const Result& result);

class ScaleCsvReporter final : public Reporter {
 public:
  explicit ScaleCsvReporter(std::string path) : path_(std::move(path)) {}
  void end(const Result& result) override;

 private:
  std::string path_;
};

}  // namespace fb
