#include "app/report_command.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <iostream>

#include "analyse/expect/expectations_file.hpp"
#include "analyse/judge.hpp"
#include "analyse/verdict/gate_policy.hpp"
#include "analyse/verdict/outcome.hpp"
#include "core/error.hpp"
#include "core/file_io.hpp"
#include "ingest/import_file.hpp"
#include "model/result_json.hpp"
#include "report/documents.hpp"
#include "report/import_source.hpp"
#include "report/json_reporter.hpp"
#include "report/prometheus_textfile.hpp"
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

// The document, or another tool's output read into one with its companions (which describe such an
// output only: given with a fabricbench document they are refused).
Result load_report_input(const ReportOptions& o) {
  const ImportOptions import{o.nccl_log, o.topo, o.gpu, o.collective, o.force};
  return load_input(o.input, import);
}

}  // namespace

int report_command(const ReportOptions& o) {
  check_output_is_not_an_input(o.output, {o.input, o.baseline, o.nccl_log, o.topo});
  if (!o.prometheus.empty()) check_output_is_not_an_input(o.prometheus, {o.input, o.baseline});
  Result r = load_report_input(o);
  if (!o.expectations.empty()) r.expectations = load_expectations_file(o.expectations);
  // Judged by the current rules whatever the file says (the file's own findings of other rules are
  // shown apart); the exit code says whether an error was found, whatever the output format.
  const SavedFindings saved{r.rules_version, r.findings};
  judge(r);
  const auto apart = saved_apart(saved, r);
  // An error-level finding, the document's or a host section's (the doctor's gate: --fail-on error).
  const int judged = fails_gate(r, FailOn::error) ? static_cast<int>(ExitCode::finding) : 0;
  if (!o.prometheus.empty())
    write_file_atomically(o.prometheus,
                          o.host.empty() ? prometheus_textfile(r) : host_prometheus_textfile(r, o.host));
  if (o.analyse && o.output.empty() && o.format.empty()) {
    fmt::print(std::cout, "# {}\n# {}\n{}{}", headline_outcome(r).words, judged_by_line(r, apart),
               import_source_markdown(r), headline_text_table(r));
    print_findings(std::cout, r.findings);
    print_verdict(std::cout, *r.verdict);
    flush_stdout();
    return judged;
  }
  const std::string format = output_format(o);
  const Result baseline = o.baseline.empty() ? Result{} : load_result_or_output(o.baseline);
  const std::string text = format == "html"  ? html_report(r, o.baseline.empty() ? nullptr : &baseline, apart)
                           : format == "csv" ? points_csv(r)
                           : format == "json" ? nlohmann::json(r).dump(2) + "\n"
                                              : markdown_summary(r, apart);
  if (o.output.empty()) {
    std::cout << text;
    flush_stdout();
  } else {
    write_file_atomically(o.output, text);
  }
  return judged;
}

}  // namespace fb
