#include "cli/doctor_cli.hpp"

#include <fmt/format.h>

#include "cli/enum_option.hpp"
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
as each stage completes. Exit 1 when the gate fails (--fail-on; default: an error-level finding,
the verdict's action "drain").

For a scheduler (docs/cli.md, "The gate"):
  --prolog   host checks (kernel, IOMMU, ACS, /dev/shm, Xid, ECC, row remaps, clocks, NVLinks, NICs,
             GPUDirect RDMA) and one verified all_reduce of 1 GiB on every GPU, judged against the
             expected figure of the GPU model and count: far below it (under half) is an error, action
             drain. Budget 5 s (3.4 s on 8 GPUs by its own estimate). Run it on an idle node.
  --passive  host checks only: no GPU buffers, no NCCL communicator, no collective. For a periodic
             health check (Slurm's HealthCheckProgram also runs on nodes busy with jobs).
Every outcome writes the verdict: no GPU, no driver, no NCCL, a failed stage or a crash still
leaves result.json and the --prometheus file saying CRITICAL (action drain) with a non-zero exit
(1 the gate, 3 environment, 4 the run failed): a node the doctor could not judge is not admitted.
Under mpirun, torchrun or srun every host writes its own --prometheus file (%h: the host's name).

Examples:
  fabricbench doctor --quick          # a 20 s budget (13-19 s on 2 x H200)
  fabricbench doctor --out results/ --gpus 0-3
  fabricbench doctor --prolog --out /var/lib/fabricbench/doctor \
      --prometheus /var/lib/node_exporter/textfile/fabricbench.prom   # Slurm Prolog (root's folders): non-zero -> drain
  fabricbench doctor --passive --fail-on warning --prometheus /var/lib/node_exporter/textfile/fabricbench.prom
  torchrun --nnodes 2 --nproc-per-node 8 ... fabricbench doctor --quick   # across hosts (FABRICBENCH_JOB_SECRET set): a section per host
  srun -N 4 --ntasks-per-node 8 fabricbench doctor --quick --exclude-file slow.txt   # the slow host named

Across hosts (mpirun, torchrun, srun) the doctor first compares every host (the preflight): hosts that
disagree on what NCCL needs alike on every rank (NCCL_ALGO, NCCL_PROTO, the NCCL version...) stop the
job before any collective, exit 2, action "fix the job's configuration" (--allow-mismatch runs it
anyway). It then prices the network with one all_reduce, cuts the collectives to the budget, and with
3 hosts or more measures pairs of hosts in rounds to name a slow one (docs/cli.md).)");
  doc->add_flag("--quick", o.request.quick, "Fewer sizes and samples, within a 20 s budget");
  doc->add_flag(
      "--prolog", o.request.prolog,
      "For a Slurm prolog: the host checks and one verified 1 GiB all_reduce judged against the GPU "
      "model's expected figure, within a 5 s budget (above)");
  doc->add_flag(
      "--passive", o.request.passive,
      "For a periodic health check on busy nodes: the host checks only, nothing measured on the GPUs");
  add_enum_option(doc, "--fail-on", o.fail_on,
                  "error (default): exit 1 on an error-level finding (action drain); warning: also on a "
                  "warning about the node (action investigate), never on a job's configuration "
                  "(docs/verdicts.md, \"The gate\")");
  doc->add_option("--gpus", o.gpus, "N (first N GPUs) or a list/range (default all)");
  doc->add_option_function<std::string>(
      "--out",
      [&o](const std::string& dir) {
        o.out_dir = dir;
        o.out_given = true;
      },
      "Results folder (default fabricbench-doctor)");
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
  doc->add_option(
      "--prometheus", o.prometheus,
      "Also write the verdict as a Prometheus node-exporter textfile, replaced whole on every run "
      "(docs/cli.md, \"Prometheus metrics\"); under a launcher every host writes its own there");
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
  if (r.prolog && r.passive)
    FB_USAGE_ERROR("--prolog and --passive exclude each other: --passive measures nothing");
  if (r.passive && r.quick)
    FB_USAGE_ERROR("--quick and --passive exclude each other: --passive measures nothing");
  return r;
}

}  // namespace fb
