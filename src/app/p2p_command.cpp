#include "app/p2p_command.hpp"

#include <fmt/format.h>

#include <fstream>
#include <iostream>

#include "analyse/p2p_analysis.hpp"
#include "engine/plan_runner.hpp"
#include "engine/result_header.hpp"
#include "bench/p2p_bench.hpp"
#include "cli/run_plan_builder.hpp"
#include "core/environment.hpp"
#include "core/error.hpp"
#include "core/file_io.hpp"
#include "core/result_json.hpp"
#include "core/units.hpp"
#include "gpu/runtime.hpp"
#include "report/json_reporter.hpp"
#include "report/p2p_console.hpp"
#include "topo/machine_probe.hpp"

namespace fb {
namespace {

// The plan's settings from the options: usage errors here, before any GPU is touched.
P2pPlan plan_from_options(const P2pOptions& o) {
  P2pPlan plan;
  plan.bytes = parse_size(o.size, "--size");
  if (plan.bytes % 4096 != 0) FB_USAGE_ERROR(fmt::format("--size {} is not a multiple of 4 KiB", o.size));
  if (o.copies < 1) FB_USAGE_ERROR(fmt::format("--copies must be at least 1 (got {})", o.copies));
  if (o.samples < 1) FB_USAGE_ERROR(fmt::format("--samples must be at least 1 (got {})", o.samples));
  if (!(o.margin > 0 && o.margin < 1))
    FB_USAGE_ERROR(fmt::format("--margin must be in (0, 1) (got {})", o.margin));
  plan.latency_bytes = parse_size(o.latency_size, "--latency-size");
  plan.latency_stride = parse_size(o.latency_stride, "--latency-stride");
  if (plan.latency_stride % 8 != 0 || plan.latency_stride * 2 > plan.latency_bytes)
    FB_USAGE_ERROR("--latency-stride must be a multiple of 8 bytes and at most half of --latency-size");
  plan.copies_per_sample = o.copies;
  plan.samples = o.samples;
  plan.pairs = !o.no_pairs;
  plan.host = !o.no_host;
  plan.latency = !o.no_latency;
  return plan;
}

}  // namespace

int p2p_command(const P2pOptions& o, const std::vector<std::string>& command_line) {
  P2pPlan plan = plan_from_options(o);
  const int visible = gpu::device_count();  // no GPU: environment error
  Result result = make_result_header(command_line, nullptr);
  result.topology = probe_topology({});
  plan.gpus = parse_gpu_selection(o.gpus, visible);
  plan.cpulists = local_cpulists(*result.topology, plan.gpus);
  add_gpus(result, plan.gpus);
  if (plan.gpus.size() == 1 && plan.pairs)
    fmt::print(stderr, "fabricbench: note: one GPU selected: measuring host<->device only\n");
  if (!plan.host && (plan.gpus.size() < 2 || !plan.pairs))
    FB_USAGE_ERROR("nothing to measure: add GPUs or drop --no-host");
  fmt::print("# fabricbench p2p: {} GPU{}, {} per copy, {} copies per sample, median of {} samples\n",
             plan.gpus.size(), plan.gpus.size() == 1 ? "" : "s", format_bytes(plan.bytes),
             plan.copies_per_sample, plan.samples);
  std::cout.flush();

  const ProgressFn progress = [&](const std::string& step) {
    if (!o.quiet) fmt::print(stderr, "fabricbench: measuring {}\n", step);
  };
  result.p2p = run_p2p(plan, progress);
  attach_p2p_ceilings(result.p2p, *result.topology);
  result.findings = check_p2p(result.p2p, *result.topology, o.margin);
  result.finished = now_iso8601();
  result.status = RunStatus::complete;

  print_p2p(std::cout, result);
  if (!o.json_path.empty()) write_file_atomically(o.json_path, nlohmann::json(result).dump(2) + "\n");
  if (!o.csv_path.empty()) {
    std::ofstream csv(o.csv_path);
    if (!csv) throw Error(ExitCode::run_failed, fmt::format("cannot write {}", o.csv_path));
    write_p2p_csv(csv, result.p2p);
  }
  if (has_error_finding(result.findings)) return static_cast<int>(ExitCode::finding);
  return 0;
}

}  // namespace fb
