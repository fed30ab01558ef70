#include "cli/report_cli.hpp"

namespace fb {

CLI::App* add_report_subcommand(CLI::App& app, ReportOptions& o) {
  auto* rep = app.add_subcommand("report", "Turn a result document into HTML, Markdown or CSV");
  rep->footer(R"(Examples:
  fabricbench report result.json -o report.html     # one self-contained page, charts inline
  fabricbench report result.json -o summary.md
  fabricbench report --analyse result.json          # recompute the verdicts from the saved data)");
  rep->add_option("result", o.input, "A result document (JSON) written by any command")->required();
  rep->add_option("-o,--output", o.output, "Write here (default: standard output)");
  rep->add_option("--format", o.format, "html | md | csv (default: from the output's extension, else md)")
      ->check(CLI::IsMember({"html", "md", "csv"}));
  rep->add_flag("--analyse", o.analyse, "Recompute the findings from the saved measurements");
  return rep;
}

CLI::App* add_doctor_subcommand(CLI::App& app, DoctorOptions& o) {
  auto* doc = app.add_subcommand(
      "doctor", "Check the whole machine: topology, pairs, collectives, algorithms, verdicts");
  doc->footer(R"(Runs topo, p2p, the main collectives, scaling (more than 2 GPUs) and the all_reduce
algorithm check, then the verdicts. Writes result.json, report.html and summary.md into --out
as each stage completes. Exit 1 with an error-level finding.

Examples:
  fabricbench doctor --quick          # under a minute on 2 GPUs
  fabricbench doctor --out results/ --gpus 0-3)");
  doc->add_flag("--quick", o.quick, "Fewer sizes and samples (about a minute on 2 GPUs)");
  doc->add_option("--gpus", o.gpus, "N (first N GPUs) or a list/range (default all)");
  doc->add_option("--out", o.out_dir, "Results folder (default fabricbench-doctor)");
  doc->add_option("--nccl-lib", o.nccl_lib, "NCCL library to load (default: libnccl.so.2)");
  doc->add_option("--timeout", o.timeout_s, "Seconds one step may take before it is stopped (default 120)");
  doc->add_flag("--debug-corrupt", o.inject_corruption)->group("");
  return doc;
}

}  // namespace fb
