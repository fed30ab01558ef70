#include "engine/algos_runner.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.hpp"
#include "core/file_io.hpp"
#include "engine/plan_runner.hpp"

namespace fb {
namespace {

namespace fs = std::filesystem;

NcclLogSummary read_logs(const fs::path& dir) {
  NcclLogSummary all;
  for (const auto& entry : fs::directory_iterator(dir)) {
    merge_nccl_logs(all, parse_nccl_log(read_file(entry.path().string())));
  }
  return all;
}

}  // namespace

AlgosSweep run_algos(const Plan& plan, const std::vector<std::string>& algos,
                     const std::vector<std::string>& protos, const std::string& keep_logs, bool quiet) {
  AlgosSweep out;
  const auto& coll = plan.runs.at(0).collective;
  // 1. NCCL's own choices, transports and channels, from a short logged pass (logging every call
  //    would slow the timed default sweep, so it runs apart).
  const fs::path logs = keep_logs.empty()
                            ? fs::temp_directory_path() / fmt::format("fabricbench-nccl-{}", ::getpid())
                            : fs::path(keep_logs);
  fs::create_directories(logs);
  Plan probe = plan;
  probe.sampling = {1, 0, 0, 1, 1, 0, 1.0};
  probe.nccl_env.insert_or_assign("NCCL_DEBUG", "INFO");
  probe.nccl_env.insert_or_assign("NCCL_DEBUG_SUBSYS", "INIT,TUNING");
  probe.nccl_env.insert_or_assign("NCCL_DEBUG_FILE", (logs / "nccl.%h.%p.log").string());
  if (!quiet) fmt::print(stderr, "fabricbench: reading NCCL's own choices from its log\n");
  const auto probed = run_plan(probe, [](int, const Point&) {});
  end_mpi_job_if_failed(probe, probed);
  out.log = read_logs(logs);
  const auto& log = out.log;
  if (keep_logs.empty()) fs::remove_all(logs);
  if (!probed.supervisor.ok)
    throw Error(probed.supervisor.code, "NCCL's default run failed: " + probed.failure);

  // 2. The timed sweeps: default first, then every forced pair in fresh workers.
  auto& configs = out.configs;
  configs.push_back({"", "", {}, ""});
  for (const auto& a : algos)
    for (const auto& p : protos)
      if (a != "default" || p != "default")
        configs.push_back({a == "default" ? "" : a, p == "default" ? "" : p, {}, ""});
  for (auto& c : configs) {
    Plan forced = plan;
    if (!c.algo.empty()) forced.nccl_env["NCCL_ALGO"] = c.algo;
    if (!c.proto.empty()) forced.nccl_env["NCCL_PROTO"] = c.proto;
    if (!quiet) fmt::print(stderr, "fabricbench: sweeping {}\n", c.label());
    const auto outcome = run_plan(forced, [&](int, const Point& p) { c.points.push_back(p); });
    end_mpi_job_if_failed(forced, outcome);  // under MPI a failed pair cannot be skipped
    if (!outcome.supervisor.ok) c.failure = outcome.failure;
    if (c.is_default() && !outcome.supervisor.ok)
      throw Error(outcome.supervisor.code, "NCCL's default sweep failed: " + outcome.failure);
    Run run = make_run(forced, 0);
    run.kind = RunKind::algos;
    run.failure = c.failure;
    run.points = c.points;
    if (c.is_default()) {
      run.nccl_transports.assign(log.transports.begin(), log.transports.end());
      run.nccl_coll_channels = log.coll_channels;
      run.nccl_p2p_channels = log.p2p_channels;
      const auto op = log.choices.find(std::string(collective(coll).nccl_log_name));
      for (auto& p : run.points) {
        if (op == log.choices.end()) break;
        if (const auto it = op->second.find(p.bytes); it != op->second.end()) {
          p.nccl_algo = it->second.algo;
          p.nccl_proto = it->second.proto;
          p.nccl_channels = it->second.channels;
        }
      }
      c.points = run.points;
    }
    out.runs.push_back(std::move(run));
  }

  return out;
}

}  // namespace fb
