#include "cli/expectations_cli.hpp"

#include "cli/import_flags.hpp"

namespace fb {

CLI::App* add_expectations_subcommand(CLI::App& app, ExpectationsOptions& o) {
  auto* cmd = app.add_subcommand("expectations",
                                 "Print the expected figures the verdicts use, or write a site's own");
  cmd->footer(R"(Each row: GPU model, GPUs, hosts, figure, sizes, NCCL's algorithm, the figure, its kind,
source and date (docs/verdicts.md prints the built-in rows).

Examples:
  fabricbench expectations                                 # the built-in rows, as Markdown
  fabricbench expectations --expectations site.json        # what judges with a site's file
  fabricbench expectations --from healthy.json -o site.json  # a site file from a healthy run
  fabricbench expectations --from all_reduce_perf.txt -o site.json   # or from nccl-tests' output
  fabricbench doctor --expectations site.json              # judge against it

--from reads what `report` reads: a fabricbench document or another tool's output (nccl-tests,
rccl-tests, their JSON and CSV, the PyTorch script), with the same companions; what was converted
is said on stderr.)");
  cmd->add_flag("--markdown", o.markdown, "Print the rows as a Markdown table (the default)");
  cmd->add_option("--expectations", o.expectations,
                  "A site's baseline (JSON): checked, and shown with the built-in rows of other GPU models");
  cmd->add_option("--from", o.from,
                  "A healthy run's result (JSON) or another tool's output: write its collectives' largest "
                  "sizes as a site file")
      ->excludes("--expectations");
  cmd->add_flag("--force", o.force,
                "With --from: take the baseline even from a run that did not complete or whose findings "
                "say its figures fall short (refused otherwise: a site file from a sick node judges every "
                "other node by it); with --nccl-log, also a log that contradicts the output, said so");
  cmd->add_option("-o,--output", o.output, "Write here (default: standard output)");
  add_import_flags(cmd, o.import);
  return cmd;
}

}  // namespace fb
