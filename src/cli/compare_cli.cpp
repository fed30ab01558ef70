#include "cli/compare_cli.hpp"

namespace fb {

CLI::App* add_compare_subcommand(CLI::App& app, CompareOptions& o) {
  auto* cmp = app.add_subcommand("compare", "Regression gate: line up two result documents");
  cmp->footer(R"(A change counts only beyond both medians' 95% intervals; a drop larger than --threshold at
or above --min-size is a regression (exit 1). Exit 2 for unreadable or unrelated files.

Examples:
  fabricbench compare base.json new.json
  fabricbench compare base.json new.json --threshold 0.03 --markdown >> "$GITHUB_STEP_SUMMARY"
  fabricbench compare base.json new.json -o diff.html   # both runs on the same charts, regressions marked)");
  cmp->add_option("base", o.base, "The reference result (JSON)")->required();
  cmp->add_option("new", o.next, "The result to judge (JSON)")->required();
  cmp->add_option("--threshold", o.threshold, "Relative drop that fails (default 0.05)");
  cmp->add_option("--min-size", o.min_size,
                  "Smallest size in bytes a regression is judged at (default 64M = 64 MiB)");
  cmp->add_flag("--markdown", o.markdown, "Print a Markdown table (CI job summaries)");
  cmp->add_option("-o,--output", o.output,
                  "Also write the comparison here: an HTML page for .html/.htm, else the table");
  return cmp;
}

}  // namespace fb
