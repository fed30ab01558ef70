#include "report/doctor_output.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <cmath>
#include <filesystem>

#include "core/safe_paths.hpp"
#include "core/units.hpp"
#include "model/result_json.hpp"
#include "report/documents.hpp"

namespace fb {
namespace {

namespace fs = std::filesystem;

std::string in_folder(const std::string& dir, const char* name) { return (fs::path(dir) / name).string(); }

}  // namespace

DoctorFolderReporter::DoctorFolderReporter(std::string dir) : dir_(std::move(dir)) {}

void DoctorFolderReporter::begin(const Result& result) { update(result); }

void DoctorFolderReporter::write(const char* name, const std::string& text) const {
  if (!folder_) folder_ = std::make_shared<FolderFd>(open_output_folder(dir_));
  write_in_folder(*folder_, name, in_folder(dir_, name), text);
}

void DoctorFolderReporter::update(const Result& result) const {
  write("result.json", nlohmann::json(result).dump(2) + "\n");
  write("report.html", html_report(result));
  write("summary.md", markdown_summary(result) + cuts_note(result));
}

std::string cuts_note(const Result& result) {
  if (!result.doctor || result.doctor->cuts.empty()) return "";
  std::string note = fmt::format("\n## Cut to stay within the {:.0f} s budget\n\n", result.doctor->budget_s);
  for (const auto& c : result.doctor->cuts) note += fmt::format("- {}: {} ({})\n", c.stage, c.what, c.why);
  return note;
}

void DoctorConsoleReporter::end(const Result& result) {
  fmt::print(out_, "{}{}", markdown_summary(result), cuts_note(result));
  fmt::print(out_, "\nfabricbench doctor: {:.0f} s; wrote {}, {}, {}\n", seconds(),
             in_folder(dir_, "result.json"), in_folder(dir_, "report.html"), in_folder(dir_, "summary.md"));
  out_.flush();
}

double DoctorConsoleReporter::seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

}  // namespace fb
