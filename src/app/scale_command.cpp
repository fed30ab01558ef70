#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <sstream>

#include "analyse/verdicts.hpp"
#include "app/algos_command.hpp"
#include "engine/machine_facts.hpp"
#include "engine/plan_runner.hpp"
#include "engine/result_header.hpp"
#include "core/environment.hpp"
#include "core/error.hpp"
#include "core/file_io.hpp"
#include "core/result_json.hpp"
#include "core/units.hpp"
#include "gpu/runtime.hpp"
#include "report/json_reporter.hpp"
#include "report/topology_console.hpp"
#include "topo/machine_probe.hpp"
#include "topo/placement.hpp"

namespace fb {
namespace {

std::vector<int> parse_counts(const std::string& text, int available) {
  std::vector<int> counts;
  if (text.empty()) {
    for (int c = 1; c < available; c *= 2) counts.push_back(c);
    counts.push_back(available);
    return counts;
  }
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    int c = 0;
    try {
      c = std::stoi(item);
    } catch (const std::exception&) {
      FB_USAGE_ERROR(fmt::format("--counts entry '{}' is not a whole number", item));
    }
    if (c < 1 || c > available)
      FB_USAGE_ERROR(fmt::format("--counts asks for {} GPUs but {} are visible", c, available));
    counts.push_back(c);
  }
  return counts;
}

struct ScaleRow {
  int count;
  std::string placement;
  std::vector<int> gpus;
  Point point;
  std::string failure;
  double efficiency = 0;  // busbw / busbw of the smallest multi-GPU group of this placement
};

}  // namespace

Run run_scale_point(const RunOptions& m, const MachineFacts& facts, const Topology& topo, int count,
                    Placement placement, Point* point, std::string* failure) {
  const auto gpus = choose_gpus(topo, count, placement);
  RunOptions one = m;
  one.gpus.clear();
  for (std::size_t i = 0; i < gpus.size(); ++i) one.gpus += (i ? "," : "") + std::to_string(gpus[i]);
  if (gpus.size() == 1) one.gpus += "-" + std::to_string(gpus[0]);  // a one-GPU list, not a count
  Plan plan = build_run_plan(one, facts);
  attach_cpulists(plan, topo);
  const char* name = placement == Placement::best ? "best" : "worst";
  fmt::print(stderr, "fabricbench: {} on {} GPU{} ({} placement: {})\n", m.collectives[0], count,
             count == 1 ? "" : "s", name, one.gpus);
  const auto outcome = run_plan(plan, {}, [&](int, const Point& p) { *point = p; });
  *failure = outcome.failure;
  Run run = make_run(plan, 0, {});
  run.kind = RunKind::scale;
  run.label = name;
  run.failure = outcome.failure;
  if (outcome.failure.empty()) run.points = {*point};
  return run;
}

int scale_command(const ScaleOptions& o, const std::vector<std::string>& command_line) {
  RunOptions m = o.measure;
  if (!m.gpus.empty()) FB_USAGE_ERROR("scale chooses the GPUs itself: give --counts instead of --gpus");
  parse_size(o.size, "--size");  // named as the user wrote it
  m.sizes = {o.size};
  check_run_options(m);
  if (m.collectives.size() != 1) FB_USAGE_ERROR("scale takes exactly one collective");
  const int available = gpu::device_count();
  const auto counts = parse_counts(o.counts, available);
  auto lib = NcclLibrary::load(m.nccl_lib);
  const auto facts = probe_machine_facts(*lib);

  Result result = make_result_header(command_line, lib.get());
  result.topology = probe_topology({});
  std::vector<Placement> placements;
  if (o.placement != "worst") placements.push_back(Placement::best);
  if (o.placement != "best") placements.push_back(Placement::worst);

  std::vector<ScaleRow> rows;
  for (const auto placement : placements) {
    const char* name = placement == Placement::best ? "best" : "worst";
    double base = 0;
    for (const int count : counts) {
      ScaleRow row{count, name, {}, {}, "", 0};
      result.runs.push_back(
          run_scale_point(m, facts, *result.topology, count, placement, &row.point, &row.failure));
      row.gpus = result.runs.back().gpus;
      if (count > 1 && base <= 0) base = row.point.busbw_gbps;
      if (count > 1 && base > 0) row.efficiency = row.point.busbw_gbps / base;
      rows.push_back(row);
    }
  }
  result.findings = check_scaling(result);
  result.finished = now_iso8601();
  result.status = RunStatus::complete;

  fmt::print("# fabricbench scale {} at {}, {} {}\n", m.collectives[0], format_bytes(parse_size(o.size)),
             result.host.comm.name, result.host.comm.version);
  fmt::print("# {:>5} {:<9} {:<18} {:>10} {:>12} {:>12} {:>11}\n", "GPUs", "placement", "GPU ids", "time(us)",
             "algbw(GB/s)", "busbw(GB/s)", "scaling(%)");
  for (const auto& r : rows) {
    std::string ids;
    for (std::size_t i = 0; i < r.gpus.size(); ++i) ids += (i ? "," : "") + std::to_string(r.gpus[i]);
    if (!r.failure.empty()) {
      fmt::print("  {:>5} {:<9} {:<18} failed: {}\n", r.count, r.placement, ids, r.failure);
      continue;
    }
    fmt::print("  {:>5} {:<9} {:<18} {:>10.2f} {:>12.2f} {:>12.2f} {:>11}\n", r.count, r.placement, ids,
               r.point.time_us.median, r.point.algbw_gbps, r.point.busbw_gbps,
               r.efficiency > 0 ? fmt::format("{:.0f}", r.efficiency * 100) : "-");
  }
  fmt::print("#\n");
  print_findings(std::cout, result.findings);
  if (!m.json_path.empty()) write_file_atomically(m.json_path, nlohmann::json(result).dump(2) + "\n");
  if (!m.csv_path.empty()) {
    std::ofstream csv(m.csv_path);
    if (!csv) throw Error(ExitCode::run_failed, fmt::format("cannot write {}", m.csv_path));
    csv << "collective,bytes,gpus,placement,gpu_ids,time_us,algbw_gbps,busbw_gbps,scaling_efficiency,"
           "failure\n";
    for (const auto& r : rows) {
      std::string ids;
      for (std::size_t i = 0; i < r.gpus.size(); ++i) ids += (i ? " " : "") + std::to_string(r.gpus[i]);
      csv << fmt::format("{},{},{},{},{},{:.3f},{:.3f},{:.3f},{:.4f},\"{}\"\n", m.collectives[0],
                         r.point.bytes, r.count, r.placement, ids, r.point.time_us.median, r.point.algbw_gbps,
                         r.point.busbw_gbps, r.efficiency, r.failure);
    }
  }
  for (const auto& r : rows)
    if (!r.failure.empty()) return static_cast<int>(ExitCode::run_failed);
  return 0;
}

}  // namespace fb
