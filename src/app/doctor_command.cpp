#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <iostream>

#include "analyse/p2p_analysis.hpp"
#include "analyse/verdicts.hpp"
#include "app/algos_command.hpp"
#include "engine/algos_runner.hpp"
#include "engine/machine_facts.hpp"
#include "engine/plan_runner.hpp"
#include "app/report_command.hpp"
#include "engine/result_header.hpp"
#include "bench/p2p_bench.hpp"
#include "core/environment.hpp"
#include "core/error.hpp"
#include "core/file_io.hpp"
#include "core/result_json.hpp"
#include "gpu/runtime.hpp"
#include "report/documents.hpp"
#include "report/json_reporter.hpp"
#include "report/topology_console.hpp"
#include "topo/machine_probe.hpp"

namespace fb {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Every stage's results are written as soon as they exist.
void write_outputs(const fs::path& dir, const Result& r) {
  write_file_atomically((dir / "result.json").string(), nlohmann::json(r).dump(2) + "\n");
  write_file_atomically((dir / "report.html").string(), html_report(r));
  write_file_atomically((dir / "summary.md").string(), markdown_summary(r));
}

std::string list(const std::vector<int>& gpus) {
  std::string s;
  for (std::size_t i = 0; i < gpus.size(); ++i) s += (i ? "," : "") + std::to_string(gpus[i]);
  return gpus.size() == 1 ? s + "-" + s : s;
}

// The largest power-of-two size whose buffers (twice the size, plus NCCL's share) fit every GPU.
std::string largest_size(const MachineFacts& facts, const std::vector<int>& gpus) {
  std::uint64_t mem = ~0ULL;
  for (int g : gpus) mem = std::min(mem, facts.devices.at(static_cast<std::size_t>(g)).memory_bytes);
  std::uint64_t size = 1ULL << 20;
  while (size * 2 <= (8ULL << 30) && 2 * (size * 2) + kNcclReserveBytes + (2ULL << 30) < mem) size *= 2;
  return std::to_string(size);
}

}  // namespace

int doctor_command(const DoctorOptions& o, const std::vector<std::string>& command_line) {
  const auto t0 = Clock::now();
  const int visible = gpu::device_count();
  auto lib = NcclLibrary::load(o.nccl_lib);
  const auto facts = probe_machine_facts(*lib);
  const auto gpus = parse_gpu_selection(o.gpus, visible);
  const fs::path dir(o.out_dir);
  fs::create_directories(dir);
  const int stages = gpus.size() > 2 ? 5 : 4;
  int stage = 0;
  auto announce = [&](const std::string& what, const std::string& estimate) {
    const double t = std::chrono::duration<double>(Clock::now() - t0).count();
    fmt::print(stderr, "fabricbench doctor [{}/{}] {} (about {}; {:.0f} s so far)\n", ++stage, stages, what,
               estimate, t);
  };
  fmt::print(stderr, "fabricbench doctor: {} GPUs, {} mode; results in {}/ (written after every stage)\n",
             gpus.size(), o.quick ? "quick" : "thorough", dir.string());

  Result result = make_result_header(command_line, lib.get());
  add_gpus(result, gpus);
  result.topology = probe_topology({});
  result.findings = analyse_result(result);
  write_outputs(dir, result);

  announce("pairs: copy engine, SM copies, latency, host links", o.quick ? "5 s" : "1 s per pair and GPU");
  P2pPlan p2p;
  p2p.gpus = gpus;
  p2p.cpulists = local_cpulists(*result.topology, gpus);
  if (o.quick) {
    p2p.bytes = 64ULL << 20;
    p2p.copies_per_sample = 4;
    p2p.samples = 3;
  }
  result.p2p = run_p2p(p2p, [](const std::string&) {});
  attach_p2p_ceilings(result.p2p, *result.topology);
  write_outputs(dir, result);

  RunOptions m;
  m.gpus = list(gpus);
  m.nccl_lib = o.nccl_lib;
  m.timeout_s = o.timeout_s;
  m.check = 1;
  m.inject_corruption = o.inject_corruption;
  if (o.quick) {
    m.sizes = {"1M", "16M", "256M", "1G"};
    m.max_time_s = 0.3;
  } else {
    m.min_bytes = "1M";
    m.max_bytes = largest_size(facts, gpus);
    m.step_factor = 4;
  }
  announce("collectives: all_reduce all_gather reduce_scatter alltoall sendrecv, verified",
           o.quick ? "10 s" : "1 min");
  m.collectives = {"all_reduce", "all_gather", "reduce_scatter", "alltoall", "sendrecv"};
  Plan plan = build_run_plan(m, facts);
  attach_cpulists(plan, *result.topology);
  std::map<int, std::size_t> slot;
  const auto outcome = run_plan(plan, {}, [&](int index, const Point& p) {
    if (!slot.contains(index)) {
      slot[index] = result.runs.size();
      result.runs.push_back(make_run(plan, static_cast<std::size_t>(index), {}));
    }
    result.runs[slot[index]].points.push_back(p);
  });
  if (!outcome.supervisor.ok) {
    result.status = RunStatus::failed;
    result.failure = outcome.failure;
    write_outputs(dir, result);
    throw Error(outcome.supervisor.code, "collectives stage failed: " + outcome.failure);
  }
  write_outputs(dir, result);

  if (gpus.size() > 2) {
    announce("scaling: all_reduce on growing groups, best and worst placement", o.quick ? "15 s" : "1 min");
    RunOptions s = m;
    s.inject_corruption = false;
    s.collectives = {"all_reduce"};
    s.sizes = {o.quick ? "256M" : "1G"};
    s.check = 0;
    s.gpus.clear();
    for (const auto placement : {Placement::best, Placement::worst}) {
      for (int count = 2; count <= static_cast<int>(gpus.size()); count *= 2) {
        Point point;
        std::string failure;
        result.runs.push_back(
            run_scale_point(s, facts, *result.topology, count, placement, &point, &failure));
      }
    }
    write_outputs(dir, result);
  }

  announce("algorithms: NCCL's choice against forced ones for all_reduce", o.quick ? "25 s" : "2 min");
  RunOptions a = m;
  a.inject_corruption = false;
  a.collectives = {"all_reduce"};
  a.check = 0;
  if (o.quick) a.sizes = {"1M", "256M", "1G"};
  Plan algo_plan = build_run_plan(a, facts);
  attach_cpulists(algo_plan, *result.topology);
  const auto sweep =
      o.quick ? run_algos(algo_plan, {"Ring", "Tree", "default"}, {"default", "LL", "Simple"}, "", true)
              : run_algos(algo_plan, {"Ring", "Tree"}, {"LL", "LL128", "Simple"}, "", true);
  for (const auto& run : sweep.runs) result.runs.push_back(run);
  // The communicator set-up NCCL logged holds for every run of this machine.
  for (auto& run : result.runs)
    if (run.kind == RunKind::collective && run.nccl_transports.empty()) {
      run.nccl_transports.assign(sweep.log.transports.begin(), sweep.log.transports.end());
      run.nccl_coll_channels = sweep.log.coll_channels;
      run.nccl_p2p_channels = sweep.log.p2p_channels;
    }

  result.findings = analyse_result(result);
  result.finished = now_iso8601();
  result.status = RunStatus::complete;
  write_outputs(dir, result);

  fmt::print("{}", markdown_summary(result));
  fmt::print("\nfabricbench doctor: {:.0f} s; wrote {}, {}, {}\n",
             std::chrono::duration<double>(Clock::now() - t0).count(), (dir / "result.json").string(),
             (dir / "report.html").string(), (dir / "summary.md").string());
  if (has_error_finding(result.findings)) return static_cast<int>(ExitCode::finding);
  return 0;
}

}  // namespace fb
