#include "cli/algos_cli.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdlib>

#include "bench/collective_spec.hpp"
#include "cli/measure_options.hpp"
#include "cli/run_request.hpp"
#include "core/error.hpp"

namespace fb {
namespace {

bool nvls_disabled() {
  const char* v = std::getenv("NCCL_NVLS_ENABLE");
  return v != nullptr && std::string(v) == "0";
}

// The algorithms NCCL offers for a collective on one node (CollNet needs a network plugin,
// PAT one GPU per node, NVLS NVLink multicast).
std::vector<std::string> default_algos(const std::string& collective) {
  const auto algos = fb::collective(collective).single_node_algos;
  if (!algos.empty()) return std::vector<std::string>(algos.begin(), algos.end());
  std::vector<std::string_view> with_algos;
  for (const auto& spec : all_collectives())
    if (!spec.single_node_algos.empty()) with_algos.push_back(spec.name);
  FB_USAGE_ERROR(fmt::format("NCCL picks no algorithm for {}: algos applies to {}", collective,
                             fmt::join(with_algos, ", ")));
}

std::vector<std::string> checked(const std::vector<std::string>& names, const std::vector<std::string>& valid,
                                 const char* what) {
  for (const auto& n : names) {
    if (n == "default") continue;  // leave this one to NCCL
    const bool nvls = n == "NVLS" || n == "NVLSTree";
    if (nvls && nvls_disabled())
      FB_USAGE_ERROR(fmt::format("{} is not forced here: NCCL_NVLS_ENABLE=0 disables NVLink multicast", n));
    if (!nvls && std::find(valid.begin(), valid.end(), n) == valid.end())
      FB_USAGE_ERROR(fmt::format("unknown {} '{}': expected one of {}", what, n, fmt::join(valid, ", ")));
  }
  return names;
}

}  // namespace

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
  algos->add_option("--keep-logs", o.request.keep_logs, "Keep NCCL's debug logs in this directory")
      ->group(grp);
  algos->add_option("--json", o.measure.json_path, "Write the result document here")->group(grp);
  algos->add_flag("-q,--quiet", o.measure.quiet, "No progress lines")->group(grp);
  return algos;
}

AlgosRequest algos_request(const AlgosOptions& o) {
  AlgosRequest r = o.request;
  refuse_run_only_flags(o.measure, "algos");
  r.measure = run_request(o.measure);
  if (o.measure.collectives.size() != 1) FB_USAGE_ERROR("algos takes exactly one collective");
  const auto& coll = o.measure.collectives[0];
  r.algos = checked(o.algos.empty() ? default_algos(coll) : parse_name_list(o.algos, "--algos"),
                    default_algos(coll), "algorithm");
  r.protos = checked(parse_name_list(o.protos, "--protos"), {"LL", "LL128", "Simple"}, "protocol");
  return r;
}

}  // namespace fb
