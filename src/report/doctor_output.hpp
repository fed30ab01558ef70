#pragma once
// `fabricbench doctor` output: the results folder (result.json, report.html, summary.md,
// rewritten after every stage so that a run that dies keeps what it measured) and the console
// summary (where the doctor stands while it runs is said through events).
#include <chrono>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>

#include "report/reporter.hpp"

namespace fb {

// What the doctor cut to stay within its budget, as a Markdown section ("" when nothing was).
std::string cuts_note(const Result& result);

class FolderFd;

// The folder is opened once (core/safe_paths' open_output_folder: made where missing, refused when
// another user owns it or every user may write in it) and every file is written relative to it.
class DoctorFolderReporter final : public Reporter {
 public:
  explicit DoctorFolderReporter(std::string dir);
  void begin(const Result& result) override;  // creates the folder
  void end(const Result& result) override { update(result); }
  // The document as it stands after a stage (the folder opened first if begin() did not).
  void update(const Result& result) const;
  // Another file of the folder (the cluster's Prometheus file), written the same way.
  void write(const char* name, const std::string& text) const;

 private:
  std::string dir_;
  mutable std::shared_ptr<FolderFd> folder_;
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
