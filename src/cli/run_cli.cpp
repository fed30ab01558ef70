#include "cli/run_cli.hpp"

namespace fb {

CLI::App* add_run_subcommand(CLI::App& app, RunOptions& o) {
  auto* run = app.add_subcommand("run", "Benchmark NCCL collectives over a range of sizes");
  run->footer(R"(Sizes take K, M, G, T suffixes (powers of 2). Bandwidths are GB/s = 1e9 bytes/s.
Collectives: all_reduce all_gather reduce_scatter broadcast reduce alltoall sendrecv, or 'all'.

Examples:
  fabricbench run all_reduce -b 8 -e 8G -f 2          # sweep 8 B .. 8 GiB, doubling
  fabricbench run all_reduce all_gather --sizes 1M,64M,1G -c 1 --json out.json
  fabricbench run all_reduce -b 8 -e 64K -G 100       # small sizes with CUDA graphs
  fabricbench run sendrecv --gpus 0,1 --launcher threads)");

  run->add_option("collectives", o.collectives, "Collectives to run (or 'all')")->required();

  auto* grp = "Sizes";
  run->add_option("-b,--minbytes", o.min_bytes, "Smallest size (default 1M)")->group(grp);
  run->add_option("-e,--maxbytes", o.max_bytes, "Largest size (default 1G)")->group(grp);
  run->add_option("-f,--stepfactor", o.step_factor, "Multiply the size by this each step (default 2)")
      ->group(grp);
  run->add_option("-i,--stepbytes", o.step_bytes, "Add this many bytes each step instead")->group(grp);
  run->add_option("--sizes", o.sizes, "Explicit list of sizes, e.g. 1M,64M,1G")->delimiter(',')->group(grp);

  grp = "Data";
  run->add_option("-d,--datatype", o.dtype,
                  "int8 uint8 int32 uint32 int64 uint64 half bfloat16 float double f8e4m3 "
                  "f8e5m2, or 'all' (default float)")
      ->group(grp);
  run->add_option("-o,--op", o.op, "sum prod max min avg, or 'all' (default sum)")->group(grp);
  run->add_option("-r,--root", o.root, "Root rank of broadcast and reduce (default 0)")->group(grp);
  run->add_option("--in-place", o.in_place, "off | on | both: in-place variants (default off)")
      ->check(CLI::IsMember({"off", "on", "both"}))
      ->group(grp);
  run->add_option("-c,--check", o.check, "1: verify every point's results (wrong elements -> exit 1)")
      ->group(grp);

  grp = "Timing";
  run->add_option("-n,--iters", o.iters, "Operations per timed batch (default 20)")->group(grp);
  run->add_option("-w,--warmup_iters", o.warmup, "Untimed operations before timing (default 5)")->group(grp);
  run->add_option("-G,--cudagraph", o.graph_launches,
                  "Capture a batch in a CUDA graph and launch it N times (default 0: off)")
      ->group(grp);
  run->add_option("--batches", o.min_batches, "Timed batches per point, at least (default 6)")->group(grp);
  run->add_option("--max-batches", o.max_batches, "Timed batches per point, at most (default 200)")
      ->group(grp);
  run->add_option("--target-ci", o.target_ci,
                  "Stop a point once its median time is known to +-this fraction at 95% "
                  "(default 0.01; 0 = exactly --batches batches)")
      ->group(grp);
  run->add_option("--max-time", o.max_time_s, "Time budget per point in seconds (default 1)")->group(grp);

  grp = "GPUs and launch";
  run->add_option("--gpus", o.gpus, "N (the first N GPUs) or a list/range: 0,2 or 0-3 (default all)")
      ->group(grp);
  run->add_option("--launcher", o.launcher,
                  "processes: one worker process per GPU (default); threads: one process drives "
                  "all GPUs")
      ->check(CLI::IsMember({"processes", "threads"}))
      ->group(grp);
  run->add_option("--timeout", o.timeout_s,
                  "Seconds a point (or NCCL set-up) may take before the run is stopped (default 120)")
      ->group(grp);
  run->add_option("--nccl-lib", o.nccl_lib, "NCCL library to load (default: libnccl.so.2)")->group(grp);

  grp = "Output";
  run->add_option("--json", o.json_path, "Write the result document here (updated after every point)")
      ->group(grp);
  run->add_option("--csv", o.csv_path, "Write one CSV row per point here")->group(grp);
  run->add_flag("-q,--quiet", o.quiet, "Print only the table")->group(grp);
  // Testing aid for the verification path: corrupts one output element on rank 0.
  run->add_flag("--debug-corrupt", o.inject_corruption)->group("");
  return run;
}

}  // namespace fb
