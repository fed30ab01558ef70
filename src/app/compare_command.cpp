#include "app/compare_command.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <iostream>

#include "analyse/run/compare.hpp"
#include "core/error.hpp"
#include "core/file_io.hpp"
#include "core/units.hpp"
#include "ingest/import_file.hpp"
#include "model/result_json.hpp"
#include "report/html/html_report.hpp"

namespace fb {

int compare_command(const CompareOptions& o) {
  if (!(o.threshold > 0 && o.threshold < 1))
    FB_USAGE_ERROR(fmt::format("--threshold must be in (0, 1) (got {})", o.threshold));
  const auto min_bytes = parse_size(o.min_size, "--min-size");
  check_output_is_not_an_input(o.output, {o.base, o.next});
  // In order, so that the first bad file is the one named; either may be another tool's output.
  const Result base = load_result_or_output(o.base);
  const Result next = load_result_or_output(o.next);
  if (const auto differences = comparability_differences(base, next); !differences.empty() && !o.force)
    FB_USAGE_ERROR(fmt::format("{} and {} measured different things ({}); --force compares them anyway",
                               o.base, o.next, fmt::join(differences, "; ")));
  const auto report = compare_results(base, next, o.threshold, min_bytes);
  const bool markdown = o.markdown || o.format == "md";
  std::cout << compare_table(report, markdown);
  flush_stdout();
  if (!o.output.empty()) {
    const bool html = o.output.ends_with(".html") || o.output.ends_with(".htm");
    write_file_atomically(o.output, html ? compare_html(base, next, report, o.threshold)
                                         : compare_table(report, markdown || o.output.ends_with(".md")));
  }
  if (report.regression()) {
    fmt::print(stderr, "fabricbench: regression beyond {:.0f}% at sizes of {} and more\n", o.threshold * 100,
               o.min_size);
    return static_cast<int>(ExitCode::finding);
  }
  return 0;
}

}  // namespace fb
