#include "app/report_command.hpp"

#include <fmt/format.h>

#include <iostream>

#include "analyse/expectations_file.hpp"
#include "analyse/verdicts.hpp"
#include "core/error.hpp"
#include "core/file_io.hpp"
#include "model/result_json.hpp"
#include "report/documents.hpp"
#include "report/json_reporter.hpp"
#include "report/topology_console.hpp"
#include "report/verdict_console.hpp"

namespace fb {
namespace {

// --format, else the output file's extension; Markdown when neither says.
std::string output_format(const ReportOptions& o) {
  if (!o.format.empty()) return o.format;
  const auto dot = o.output.rfind('.');
  const auto ext = dot == std::string::npos ? "" : o.output.substr(dot + 1);
  return ext == "html" || ext == "htm" ? "html" : ext == "csv" ? "csv" : ext == "json" ? "json" : "md";
}

}  // namespace

int report_command(const ReportOptions& o) {
  check_output_is_not_an_input(o.output, {o.input, o.baseline});
  Result r = load_result_file(o.input);
  if (!o.expectations.empty()) r.expectations = load_expectations_file(o.expectations);
  // With --analyse the exit code says whether an error was found, whatever the output format.
  if (o.analyse) judge_result(r);
  const int analysed = o.analyse && has_error_finding(r.findings) ? static_cast<int>(ExitCode::finding) : 0;
  if (o.analyse && o.output.empty() && o.format.empty()) {
    print_findings(std::cout, r.findings);
    print_verdict(std::cout, *r.verdict);
    flush_stdout();
    return analysed;
  }
  const std::string format = output_format(o);
  const Result baseline = o.baseline.empty() ? Result{} : load_result_file(o.baseline);
  const std::string text = format == "html"   ? html_report(r, o.baseline.empty() ? nullptr : &baseline)
                           : format == "csv"  ? points_csv(r)
                           : format == "json" ? nlohmann::json(r).dump(2) + "\n"
                                              : markdown_summary(r);
  if (o.output.empty()) {
    std::cout << text;
    flush_stdout();
  } else {
    write_file_atomically(o.output, text);
  }
  return analysed;
}

}  // namespace fb
