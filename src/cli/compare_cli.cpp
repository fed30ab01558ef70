#include "cli/compare_cli.hpp"

namespace fb {

CLI::App* add_compare_subcommand(CLI::App& app, CompareOptions& o) {
  auto* cmp = app.add_subcommand("compare", "Regression gate: line up two result documents");
  cmp->footer(R"(A change counts only beyond both medians' 95% intervals; a drop larger than --threshold at
or above --min-size is a regression (exit 1). Exit 2 for unreadable or unrelated files, and for
results of another GPU model, GPU count, NCCL/RCCL major version or set of collectives (named;
--force compares them anyway).

Examples:
  fabricbench compare base.json new.json
  fabricbench compare base.json new.json --threshold 0.03 --format md >> "$GITHUB_STEP_SUMMARY"
  fabricbench compare base.json new.json -o diff.html   # both runs on the same charts, regressions marked)");
  cmp->add_option("base", o.base, "The reference result (JSON)")->required();
  cmp->add_option("new", o.next, "The result to judge (JSON)")->required();
  cmp->add_option("--threshold", o.threshold, "Relative drop that fails (default 0.05)");
  cmp->add_option("--min-size", o.min_size,
                  "Smallest size in bytes a regression is judged at (default 64M = 64 MiB)");
  cmp->add_option("--format", o.format, "text | md: the table on standard output (default text)")
      ->check(CLI::IsMember({"text", "md"}));
  cmp->add_flag("--markdown", o.markdown, "The same as --format md (the older spelling)");
  cmp->add_flag("--force", o.force,
                "Compare results of another GPU model, GPU count, library major version or collective set");
  cmp->add_option("-o,--output", o.output,
                  "Also write the comparison here: an HTML page for .html/.htm, a Markdown table for .md, "
                  "else the table");
  return cmp;
}

}  // namespace fb
