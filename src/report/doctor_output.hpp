#pragma once
// `fabricbench doctor` output: the results folder (result.json, report.html, summary.md,
// rewritten after every stage so that a run that dies keeps what it measured) and the console
// (progress on one stream, the summary on the other).
#include <chrono>
#include <ostream>
#include <string>
#include <string_view>

#include "report/reporter.hpp"

namespace fb {

// What the doctor cut to stay within its budget, as a Markdown section ("" when nothing was).
std::string cuts_note(const Result& result);

class DoctorFolderReporter final : public Reporter {
 public:
  explicit DoctorFolderReporter(std::string dir) : dir_(std::move(dir)) {}
  void begin(const Result& result) override;  // creates the folder
  void end(const Result& result) override { update(result); }
  // The document as it stands after a stage.
  void update(const Result& result) const;

 private:
  std::string dir_;
};

class DoctorConsoleReporter final : public Reporter {
 public:
  // Elapsed times count from construction.
  DoctorConsoleReporter(std::ostream& out, std::ostream& progress, std::string dir, bool quick)
      : out_(out), progress_(progress), dir_(std::move(dir)), quick_(quick) {}
  void begin(const Result& result) override;
  // Before the first stage: how many run, about how long they take in all, the budget.
  void planned(int stages, double estimate_s, double budget_s);
  // Before stage `number` of `total` runs: what it does and about how long it takes.
  void stage(int number, int total, std::string_view what, std::string_view estimate);
  // Something left out to stay in the budget: one line, before its stage runs.
  void cut(const DoctorCut& cut);
  void end(const Result& result) override;

 private:
  [[nodiscard]] double seconds() const;
  std::ostream& out_;
  std::ostream& progress_;
  std::string dir_;
  bool quick_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace fb
