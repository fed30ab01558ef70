#include "cli/doctor_cli.hpp"

#include <fmt/format.h>

#include "cli/measure_options.hpp"
#include "cli/run_request.hpp"
#include "core/error.hpp"
#include "gpu/vendor.hpp"

namespace fb {

CLI::App* add_doctor_subcommand(CLI::App& app, DoctorOptions& o) {
  auto* doc = app.add_subcommand(
      "doctor", "Check the whole machine: topology, pairs, collectives, algorithms, verdicts");
  doc->footer(R"(Runs topo, p2p, the main collectives, scaling (more than 2 GPUs) and the all_reduce
algorithm check, then the verdicts. Writes result.json, report.html and summary.md into --out
as each stage completes. Exit 1 with an error-level finding.

Examples:
  fabricbench doctor --quick          # a 20 s budget (13-19 s on 2 x H200)
  fabricbench doctor --out results/ --gpus 0-3
  fabricbench doctor --quick --prometheus /var/lib/node_exporter/fabricbench.prom   # for a scheduler
  fabricbench doctor --prolog --out /tmp/fb-prolog   # in a Slurm prolog: exit 1 -> drain the node
  torchrun --nnodes 2 --nproc-per-node 8 ... fabricbench doctor --quick   # across hosts: a section per host
  srun -N 4 --ntasks-per-node 8 fabricbench doctor --quick --exclude-file slow.txt   # the slow host named

Across hosts (mpirun, torchrun, srun) the doctor first compares every host (the preflight): hosts that
disagree on what NCCL needs alike on every rank (NCCL_ALGO, NCCL_PROTO, the NCCL version...) stop the
job before any collective, exit 2, action "fix the job's configuration" (--allow-mismatch runs it
anyway). It then prices the network with one all_reduce, cuts the collectives to the budget, and with
3 hosts or more measures pairs of hosts in rounds to name a slow one (docs/cli.md).)");
  doc->add_flag("--quick", o.request.quick, "Fewer sizes and samples, within a 20 s budget");
  doc->add_flag("--prolog", o.request.prolog,
                "For a Slurm prolog or health check: the host checks and one short verified all_reduce "
                "(64 MiB), within a 5 s budget; exit 1 and action \"drain\" on an error (docs/cli.md)");
  doc->add_option("--gpus", o.gpus, "N (first N GPUs) or a list/range (default all)");
  doc->add_option("--out", o.out_dir, "Results folder (default fabricbench-doctor)");
  doc->add_option("--nccl-lib", o.request.settings.nccl_lib,
                  fmt::format("NCCL library to load (default: {})", gpu::default_collective_library()));
  doc->add_option("--timeout", o.request.settings.timeout_s,
                  "Seconds one step may take before it is stopped (default 120)");
  doc->add_option(
      "--budget", o.request.budget_s,
      "Seconds the whole doctor may take: later stages are estimated from the measured speed and "
      "cut to fit, each cut said on stderr and in the report (default 20 with --quick, else 600)");
  doc->add_option("--expectations", o.expectations,
                  "A site's baseline (JSON, docs/verdicts.md): its rows replace the built-in expectations of "
                  "each GPU model and figure it names");
  doc->add_option("--prometheus", o.prometheus,
                  "Also write the verdict as a Prometheus node-exporter textfile (docs/cli.md, \"Prometheus "
                  "metrics\")");
  doc->add_option("--exclude-file", o.exclude_file,
                  "Across 3 hosts or more: write the hosts named slow by the nodes stage here, one Slurm "
                  "hostlist line (empty when none), for sbatch --exclude=$(cat FILE)");
  add_allow_mismatch_flag(doc, o.request.settings);
  doc->add_flag("--debug-corrupt", o.request.settings.inject_corruption)->group("");
  return doc;
}

DoctorRequest doctor_request(const DoctorOptions& o) {
  DoctorRequest r = o.request;
  r.gpus = parse_gpu_selection(o.gpus);
  check_timeout(r.settings.timeout_s, "--timeout");
  if (r.budget_s) check_timeout(*r.budget_s, "--budget");  // 0, NaN and infinity are refused
  return r;
}

}  // namespace fb
