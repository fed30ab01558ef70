#include "report/scale_report.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <map>
#include <vector>

#include "core/file_io.hpp"
#include "core/text.hpp"
#include "core/units.hpp"
#include "report/topology_console.hpp"

namespace fb {
namespace {

struct ScaleRow {
  const Run* run;
  Point point;            // empty for a group that failed
  double efficiency = 0;  // busbw / busbw of the smallest multi-GPU group of this placement
};

std::vector<ScaleRow> scale_rows(const Result& result) {
  std::vector<ScaleRow> rows;
  std::map<std::string, double> base;  // per placement
  for (const auto& run : result.runs) {
    if (run.kind != RunKind::scale) continue;
    ScaleRow row{&run, run.points.empty() ? Point{} : run.points.front(), 0};
    double& b = base[run.label];
    if (run.gpus.size() > 1 && b <= 0) b = row.point.busbw_gbps;
    if (run.gpus.size() > 1 && b > 0) row.efficiency = row.point.busbw_gbps / b;
    rows.push_back(row);
  }
  return rows;
}

}  // namespace

void ScaleConsoleReporter::end(const Result& result) {
  fmt::print(out_, "# fabricbench scale {} at {}, {} {}\n", collective_, format_bytes(bytes_),
             result.host.comm.name, result.host.comm.version);
  fmt::print(out_, "# {:>5} {:<9} {:<18} {:>10} {:>12} {:>12} {:>11}\n", "GPUs", "placement", "GPU ids",
             "time(us)", "algbw(GB/s)", "busbw(GB/s)", "scaling(%)");
  for (const auto& r : scale_rows(result)) {
    const auto ids = join_ints(r.run->gpus);
    if (!r.run->failure.empty()) {
      fmt::print(out_, "  {:>5} {:<9} {:<18} failed: {}\n", r.run->gpus.size(), r.run->label, ids,
                 r.run->failure);
      continue;
    }
    fmt::print(out_, "  {:>5} {:<9} {:<18} {:>10.2f} {:>12.2f} {:>12.2f} {:>11}\n", r.run->gpus.size(),
               r.run->label, ids, r.point.time_us.median, r.point.algbw_gbps, r.point.busbw_gbps,
               r.efficiency > 0 ? fmt::format("{:.0f}", r.efficiency * 100) : "-");
  }
  fmt::print(out_, "#\n");
  print_findings(out_, result.findings);
  out_.flush();
}

std::string scale_csv(const Result& result) {
  std::string csv =
      "collective,bytes,gpus,placement,gpu_ids,time_us,algbw_gbps,busbw_gbps,scaling_efficiency,failure\n";
  for (const auto& r : scale_rows(result))
    csv +=
        fmt::format("{},{},{},{},{},{:.3f},{:.3f},{:.3f},{:.4f},\"{}\"\n", r.run->collective, r.point.bytes,
                    r.run->gpus.size(), r.run->label, join_ints(r.run->gpus, " "), r.point.time_us.median,
                    r.point.algbw_gbps, r.point.busbw_gbps, r.efficiency, r.run->failure);
  return csv;
}

void ScaleCsvReporter::end(const Result& result) { write_file_atomically(path_, scale_csv(result)); }

}  // namespace fb
