#pragma once
// `fabricbench doctor` output: the results folder (result.json, report.html, summary.md,
// rewritten after every stage so that a run that dies keeps what it measured) and the console
// summary (where the doctor stands while it runs is said through events).
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

// The summary on `out` at the end, with the doctor's time and the files written. (Where the doctor
// stands while it runs is said through events: engine/doctor/doctor.hpp.)
class DoctorConsoleReporter final : public Reporter {
 public:
  // Elapsed time counts from construction.
  DoctorConsoleReporter(std::ostream& out, std::string dir) : out_(out), dir_(std::move(dir)) {}
  void end(const Result& result) override;

 private:
  [[nodiscard]] double seconds() const;
  std::ostream& out_;
  std::string dir_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace fb
