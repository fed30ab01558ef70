#include "app/algos_command.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdlib>
#include <iostream>
#include <set>
#include <sstream>

#include "analyse/algo_selection.hpp"
#include "engine/algos_runner.hpp"
#include "engine/machine_facts.hpp"
#include "engine/plan_runner.hpp"
#include "engine/result_header.hpp"
#include "comm/mpi_session.hpp"
#include "comm/nccl_log.hpp"
#include "core/environment.hpp"
#include "core/error.hpp"
#include "core/file_io.hpp"
#include "core/result_json.hpp"
#include "gpu/runtime.hpp"
#include "report/json_reporter.hpp"
#include "report/topology_console.hpp"
#include "topo/machine_probe.hpp"

namespace fb {
namespace {

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

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

void print_grid(const std::vector<AlgoConfig>& configs, const std::vector<SizeWinner>& w) {
  fmt::print("#\n# busbw (GB/s) per size; winner; NCCL's own choice from its log\n# {:>12}", "size(B)");
  for (const auto& c : configs) fmt::print(" {:>13}", c.label());
  fmt::print(" {:>13} {:>16}\n", "winner", "NCCL chose");
  for (std::size_t i = 0; i < w.size(); ++i) {
    fmt::print("  {:>12}", w[i].bytes);
    for (const auto& c : configs)
      fmt::print(" {:>13}", i < c.points.size() ? fmt::format("{:.1f}", c.points[i].busbw_gbps) : "-");
    fmt::print(" {:>13} {:>16}\n", configs[w[i].config].label(),
               w[i].nccl_algo.empty() ? "?" : fmt::format("{}/{}", w[i].nccl_algo, w[i].nccl_proto));
  }
  for (const auto& c : configs)
    if (!c.failure.empty()) fmt::print("# {} could not run: {}\n", c.label(), c.failure);
}

}  // namespace

int algos_command(const AlgosOptions& o, const std::vector<std::string>& command_line) {
  const RunOptions& m = o.measure;
  check_run_options(m);
  if (m.collectives.size() != 1) FB_USAGE_ERROR("algos takes exactly one collective");
  const auto& coll = m.collectives[0];
  const auto algos =
      checked(o.algos.empty() ? default_algos(coll) : split(o.algos), default_algos(coll), "algorithm");
  const auto protos = checked(split(o.protos), {"LL", "LL128", "Simple"}, "protocol");
  gpu::device_count();
  auto lib = NcclLibrary::load(m.nccl_lib);
  auto machine = probe_machine_facts(*lib);
  const MpiSession* mpi = MpiSession::current();
  if (mpi != nullptr) machine.mpi_local_ranks = mpi->local_ranks();
  Plan plan = build_run_plan(m, machine);
  const int nodes =
      mpi == nullptr ? 1 : static_cast<int>(std::set(mpi->hosts().begin(), mpi->hosts().end()).size());
  for (const char* var : {"NCCL_ALGO", "NCCL_PROTO"})
    if (std::getenv(var))
      fmt::print(stderr, "fabricbench: warning: {} is set; the 'default' sweep is not NCCL's own choice\n",
                 var);

  Result result = make_result_header(command_line, lib.get());
  result.topology = probe_topology({});
  attach_cpulists(plan, *result.topology);
  add_gpus(result, plan.gpus);

  auto sweep = run_algos(plan, algos, protos, o.keep_logs, o.measure.quiet);
  auto& configs = sweep.configs;
  const auto& log = sweep.log;
  for (auto& run : sweep.runs) result.runs.push_back(std::move(run));

  auto w = winners(configs);
  for (std::size_t i = 0; i < w.size() && i < configs[0].points.size(); ++i) {
    w[i].nccl_algo = configs[0].points[i].nccl_algo;
    w[i].nccl_proto = configs[0].points[i].nccl_proto;
  }
  result.findings = forced_beats_default(configs, 0.01, 0);
  result.finished = now_iso8601();
  result.status = RunStatus::complete;

  fmt::print("# fabricbench algos {} ({} {}), {} GPUs, {} {}\n", coll, dtype_info(plan.runs[0].dtype).name,
             redop_info(plan.runs[0].op).name, plan.nranks(), result.host.comm.name,
             result.host.comm.version);
  fmt::print("# NCCL set-up: transports {}; {} collective channels, {} p2p channels\n",
             log.transports.empty() ? "?" : fmt::format("{}", fmt::join(log.transports, ", ")),
             log.coll_channels, log.p2p_channels);
  print_grid(configs, w);
  fmt::print("#\n");
  print_findings(std::cout, result.findings);
  if (!o.tuner_csv.empty()) {
    // The plugin needs both halves of a choice: NCCL's logged default and fully forced pairs.
    std::vector<AlgoConfig> complete;
    for (const auto& c : configs)
      if (c.is_default() || (!c.algo.empty() && !c.proto.empty())) complete.push_back(c);
    auto tw = winners(complete);
    for (std::size_t i = 0; i < tw.size() && i < w.size(); ++i) {
      tw[i].nccl_algo = w[i].nccl_algo;
      tw[i].nccl_proto = w[i].nccl_proto;
    }
    write_file_atomically(o.tuner_csv, tuner_csv(coll, plan.nranks(), nodes, tw, complete));
    fmt::print("# tuner configuration written to {} (load it with NCCL_TUNER_CONFIG_FILE)\n", o.tuner_csv);
  }
  if (!o.measure.json_path.empty())
    write_file_atomically(o.measure.json_path, nlohmann::json(result).dump(2) + "\n");
  return 0;
}

}  // namespace fb
