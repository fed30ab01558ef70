#include "report/doctor_output.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <cmath>
#include <filesystem>

#include "core/file_io.hpp"
#include "core/units.hpp"
#include "model/result_json.hpp"
#include "report/documents.hpp"

namespace fb {
namespace {

namespace fs = std::filesystem;

std::string in_folder(const std::string& dir, const char* name) { return (fs::path(dir) / name).string(); }

}  // namespace

void DoctorFolderReporter::begin(const Result& result) {
  fs::create_directories(dir_);
  update(result);
}

void DoctorFolderReporter::update(const Result& result) const {
  write_file_atomically(in_folder(dir_, "result.json"), nlohmann::json(result).dump(2) + "\n");
  write_file_atomically(in_folder(dir_, "report.html"), html_report(result));
  write_file_atomically(in_folder(dir_, "summary.md"), markdown_summary(result) + cuts_note(result));
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
