#include "cli/algos_cli.hpp"

#include "cli/measure_options.hpp"

namespace fb {

CLI::App* add_algos_subcommand(CLI::App& app, AlgosOptions& o) {
  auto* algos =
      app.add_subcommand("algos", "Compare NCCL's algorithm/protocol choice with every forced pair");
  algos->footer(R"(Runs the sweep once with NCCL's defaults and once per NCCL_ALGO x NCCL_PROTO pair, each in
fresh workers (NCCL reads NCCL_ALGO/NCCL_PROTO when a communicator is created); reads NCCL's
own choice, transports and channels from its log. --launcher threads compares with nccl-tests
run as one process driving all GPUs (-g N).
Bandwidths are busbw in GB/s = 1e9 bytes/s. NVLS/NVLSTree are never forced while
NCCL_NVLS_ENABLE=0.

Examples:
  fabricbench algos all_reduce
  fabricbench algos all_reduce --sizes 16M,256M,1G,4G --tuner-csv nccl_tuner.conf
  fabricbench algos all_gather --protos LL128,Simple --json algos.json
  fabricbench algos all_reduce --algos Ring,Tree,default --protos default,LL,LL128,Simple)");
  algos
      ->add_option("collective", o.measure.collectives,
                   "all_reduce, all_gather, reduce_scatter, broadcast or reduce")
      ->required()
      ->expected(1);
  add_size_options(algos, o.measure);
  add_data_options(algos, o.measure, /*verification=*/false);
  add_timing_options(algos, o.measure);
  add_launch_options(algos, o.measure, /*launcher=*/true);
  const char* grp = "Choices and output";
  algos
      ->add_option(
          "--algos", o.algos,
          "Algorithms to force, e.g. Ring,Tree (default: those NCCL offers); 'default' leaves it to NCCL")
      ->group(grp);
  algos
      ->add_option("--protos", o.protos,
                   "Protocols to force (default LL,LL128,Simple); 'default' leaves it to NCCL")
      ->group(grp);
  algos->add_option("--tuner-csv", o.tuner_csv, "Write the winners for NCCL's example tuner plugin here")
      ->group(grp);
  algos->add_option("--keep-logs", o.keep_logs, "Keep NCCL's debug logs in this directory")->group(grp);
  algos->add_option("--json", o.measure.json_path, "Write the result document here")->group(grp);
  algos->add_flag("-q,--quiet", o.measure.quiet, "No progress lines")->group(grp);
  return algos;
}

CLI::App* add_scale_subcommand(CLI::App& app, ScaleOptions& o) {
  auto* scale = app.add_subcommand("scale", "Busbw and time as the job grows, on well and badly placed GPUs");
  scale->footer(R"(Runs one collective at one size on 1, 2, 4, ... GPUs (or --counts), choosing the GPUs from
the topology: best keeps a group on the strongest links, worst spreads it over sockets and
switches. Scaling efficiency = busbw / busbw of the smallest multi-GPU group of the same
placement. Bandwidths in GB/s = 1e9 bytes/s.

Examples:
  fabricbench scale all_reduce --size 1G
  fabricbench scale all_gather --size 256M --counts 2,4,8 --placement best --json scale.json)");
  scale->add_option("collective", o.measure.collectives, "The collective to scale")->required()->expected(1);
  scale->add_option("--size", o.size, "Message size (default 1G)");
  scale->add_option("--counts", o.counts, "GPU counts, e.g. 2,4,8 (default 1, 2, 4, ... all)");
  scale->add_option("--placement", o.placement, "best | worst | both (default both)")
      ->check(CLI::IsMember({"best", "worst", "both"}));
  add_data_options(scale, o.measure, /*verification=*/false);
  add_timing_options(scale, o.measure);
  add_launch_options(scale, o.measure, /*launcher=*/true);
  scale->add_option("--json", o.measure.json_path, "Write the result document here");
  scale->add_option("--csv", o.measure.csv_path, "Write one row per count and placement here");
  return scale;
}

}  // namespace fb
