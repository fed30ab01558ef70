#include "cli/report_cli.hpp"

#include "cli/import_flags.hpp"

namespace fb {

CLI::App* add_report_subcommand(CLI::App& app, ReportOptions& o) {
  auto* rep = app.add_subcommand("report", "Turn a result document into HTML, Markdown or CSV");
  rep->footer(R"(Examples:
  fabricbench report result.json -o report.html     # one self-contained page, charts inline
  fabricbench report result.json -o summary.md
  fabricbench report --analyse result.json          # the verdicts only, as text
  fabricbench report result.json -o judged.json     # the document judged: findings and verdict contract
  fabricbench report new.json --baseline vendor.json -o report.html   # the baseline drawn dashed
  fabricbench report result.json --analyse --prometheus /var/lib/node_exporter/textfile/fabricbench.prom
  fabricbench report all_reduce_perf.txt --analyse                  # an nccl-tests output, judged
  fabricbench report all_reduce_perf.txt --nccl-log nccl.log --topo topo.txt -o report.html
  fabricbench report torch_allreduce.txt --gpu "8 x H100 80GB HBM3" --analyse

`result` is a fabricbench document or another tool's output, recognised by its content: nccl-tests or
rccl-tests standard output (any version) or nccl-tests -J JSON, rccl-tests CSV, the PyTorch all_reduce
script's lines ("World Size", "Tensor Size", "Iterations", "Total Time", "Estimated Bandwidth"),
all_reduce_bench.py's ("The average bandwidth of all_reduce with a 4.0GB payload ...", "algbw:", "busbw:")
or its current Markdown table ("| payload | busbw | algbw |", torch-dist-bench.py's alike). A pasted
command line and environment (NCCL_P2P_DISABLE=1 mpirun ..., export, -x NAME=VALUE) and NCCL's
"set by environment" lines are the run's environment; a run that crashed is read as failed, with its line.

Every report judges what it shows with this build's rules (the file's own findings of other rules
are listed apart); exit 1 when an error-level finding is present, whatever the format.)");
  rep->add_option("result", o.input,
                  "A result document (JSON) written by any command, or another tool's output (see below)")
      ->required();
  rep->add_option("-o,--output", o.output, "Write here (default: standard output)");
  rep->add_option("--format", o.format,
                  "html | md | csv | json (json: the document itself, judged: its findings and verdict; "
                  "default: from the output's extension, else md)")
      ->check(CLI::IsMember({"html", "md", "csv", "json"}));
  rep->add_flag("--analyse", o.analyse,
                "Without -o/--format: print the verdicts (outcome, headline figures, findings, verdict) as "
                "text instead of the Markdown (every report judges by default)");
  rep->add_option("--expectations", o.expectations,
                  "A site's baseline (JSON, docs/verdicts.md): its rows replace the built-in expectations of "
                  "each GPU model and figure it names");
  rep->add_option("--prometheus", o.prometheus,
                  "Also write the verdict as a Prometheus node-exporter textfile (docs/cli.md, \"Prometheus "
                  "metrics\")");
  rep->add_option("--host", o.host,
                  "With --prometheus and a result across hosts: only this host's series (the file that host "
                  "writes under a job)")
      ->needs("--prometheus");
  rep->add_option("--baseline", o.baseline,
                  "Another result (JSON) drawn as dashed reference series on the HTML busbw chart");
  add_import_flags(rep, o.nccl_log, o.topo, o.gpu, o.collective);
  rep->add_flag(
         "--force", o.force,
         "With --nccl-log: take a log that contradicts the output (its hosts, library, NCCL version or "
         "communicator size), said so in the document, instead of refusing it (exit 2)")
      ->needs("--nccl-log");
  return rep;
}

}  // namespace fb
