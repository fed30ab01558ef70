#include "cli/run_cli.hpp"

#include "cli/measure_options.hpp"

namespace fb {

CLI::App* add_run_subcommand(CLI::App& app, RunOptions& o) {
  auto* run = app.add_subcommand("run", "Benchmark NCCL collectives over a range of sizes");
  run->footer(R"(Sizes take K, M, G, T suffixes (powers of 2). Bandwidths are GB/s = 1e9 bytes/s.
Collectives: all_reduce all_gather reduce_scatter broadcast reduce alltoall sendrecv gather
scatter, or 'all'.

Examples:
  fabricbench run all_reduce -b 8 -e 8G -f 2          # sweep 8 B .. 8 GiB, doubling
  fabricbench run all_reduce all_gather --sizes 1M,64M,1G -c 1 --json out.json
  fabricbench run all_reduce -b 8 -e 64K -G 100       # small sizes with CUDA graphs
  fabricbench run sendrecv --gpus 0,1 --launcher threads
  mpirun -np 16 -H node1:8,node2:8 fabricbench run all_reduce -b 1M -e 8G
                                                      # one rank per GPU, across hosts)");

  run->add_option("collectives", o.collectives, "Collectives to run (or 'all')")->required();
  add_size_options(run, o);
  add_data_options(run, o, /*verification=*/true);
  add_timing_options(run, o);
  add_launch_options(run, o, /*launcher=*/true);

  const char* grp = "Output";
  run->add_option("--json", o.json_path, "Write the result document here (updated after every point)")
      ->group(grp);
  run->add_option("--csv", o.csv_path, "Write one CSV row per point here")->group(grp);
  run->add_flag("--no-nccl-log{false}", o.request.read_nccl_log,
                "Skip the logged pass after the sweep (one operation per point, about 1 s) that records "
                "what NCCL chose: transports, channels, NVLS, algorithm and protocol at each size")
      ->group(grp);
  run->add_flag("-q,--quiet", o.quiet, "Print only the table")->group(grp);
  run->add_flag("-v,--verbose", o.verbose,
                "Also print where the start-up time went (ms from launch to the first point)")
      ->group(grp);
  // Testing aid for the verification path: corrupts one output element on rank 0.
  run->add_flag("--debug-corrupt", o.request.settings.inject_corruption)->group("");
  return run;
}

}  // namespace fb
