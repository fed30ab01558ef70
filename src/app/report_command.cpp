#include "app/report_command.hpp"

#include <fmt/format.h>

#include <iostream>

#include "analyse/verdicts.hpp"
#include "core/error.hpp"
#include "core/file_io.hpp"
#include "core/result_json.hpp"
#include "report/documents.hpp"
#include "report/json_reporter.hpp"
#include "report/topology_console.hpp"

namespace fb {

int report_command(const ReportOptions& o) {
  check_output_is_not_an_input(o.output, {o.input});
  const std::string input = read_file(o.input);
  Result r;
  try {
    r = parse_result(input);
  } catch (const Error& e) {
    FB_USAGE_ERROR(fmt::format("{}: {}", o.input, e.what()));
  }
  if (o.analyse) {
    r.findings = analyse_result(r);
    if (o.output.empty() && o.format.empty()) {
      print_findings(std::cout, r.findings);
      flush_stdout();
      if (has_error_finding(r.findings)) return static_cast<int>(ExitCode::finding);
      return 0;
    }
  }
  std::string format = o.format;
  if (format.empty()) {
    const auto dot = o.output.rfind('.');
    const auto ext = dot == std::string::npos ? "" : o.output.substr(dot + 1);
    format = ext == "html" || ext == "htm" ? "html" : ext == "csv" ? "csv" : "md";
  }
  const std::string text = format == "html"  ? html_report(r)
                           : format == "csv" ? points_csv(r)
                                             : markdown_summary(r);
  if (o.output.empty()) {
    std::cout << text;
    flush_stdout();
  } else {
    write_file_atomically(o.output, text);
  }
  return 0;
}

}  // namespace fb
