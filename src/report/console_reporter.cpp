#include "report/console_reporter.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

#include "analyse/scope/gpu_names.hpp"
#include "bench/collective_spec.hpp"
#include "core/units.hpp"
#include "report/nccl_choices.hpp"

namespace fb {
namespace {

std::string run_title(const Run& run) {
  std::string title = fmt::format("{}  {}", run.collective, run.dtype);
  if (!run.op.empty()) title += fmt::format("  {}", run.op);
  const auto* spec = find_collective(run.collective);
  if (spec != nullptr && spec->rooted) title += fmt::format("  root {}", run.root);
  title += run.graph_launches > 0 ? fmt::format("  graph x{}", run.graph_launches) : "  graph off";
  return title;
}

std::string ci_text(double ci) {
  return std::isfinite(ci) ? fmt::format("{:.1f}", ci * 100) : std::string("-");
}

// A single-operation figure (the tail), or "-" where the point has none (-G, --tail-iters 0).
std::string tail_text(const std::optional<IterationTimes>& it, double IterationTimes::*figure) {
  return it ? fmt::format("{:.2f}", (*it).*figure) : std::string("-");
}

}  // namespace

void ConsoleReporter::begin(const Result& r) {
  if (quiet_) return;
  fmt::print(out_, "# fabricbench {} ({})  {}\n", r.tool.version, r.tool.git, r.started);
  fmt::print(out_, "# {} {} ({})\n", r.host.comm.name, r.host.comm.version, r.host.comm.path);
  const bool across = spans_hosts(r);
  const auto hosts = result_host_names(r);
  fmt::print(out_, "# {} {}, CUDA driver {}, runtime {}, {} GPU{}\n", across ? "hosts" : "host",
             across ? fmt::format("{}", fmt::join(hosts, ", ")) : r.host.hostname, r.host.driver,
             r.host.runtime, r.gpus.size(), r.gpus.size() == 1 ? "" : "s");
  for (const auto& g : r.gpus)  // across hosts every host has a GPU 0: named host:index
    fmt::print(out_, "#   rank {}: GPU {}  {}  {}  {}\n", g.rank,
               across ? document_gpu_name(r, g) : std::to_string(g.index), g.name, g.pci_bus_id,
               format_bytes(g.memory_bytes));
  auto in_run = [&](int gpu) {
    return std::any_of(r.gpus.begin(), r.gpus.end(), [&](const GpuInfo& g) { return g.index == gpu; });
  };
  if (r.topology)
    for (const auto& p : r.topology->pairs)
      if (in_run(p.a) && in_run(p.b))
        fmt::print(out_, "#   GPU{}-GPU{}: {}, wire peak {:.1f} GB/s per direction ({})\n", p.a, p.b,
                   p.connection, p.wire_gbps, p.limit);
  for (const auto& [k, v] : r.env) fmt::print(out_, "# env {}={}\n", k, v);
  out_.flush();
}

void ConsoleReporter::point(const Result& r, std::size_t run_index, std::size_t point_index) {
  const Run& run = r.runs.at(run_index);
  const Point& p = run.points.at(point_index);
  // NCCL's choice where its log gave the run's points one (a document read back), a column at the end.
  const bool choices = has_nccl_choice(run);
  if (point_index == 0) {
    fmt::print(out_, "#\n# {}\n", run_title(run));
    fmt::print(out_, "# {:>12} {:>12} {:>5} {:>10} {:>7} {:>7} {:>10} {:>10} {:>12} {:>12} {:>6}{}\n",
               "size(B)", "count(elem)", "place", "time(us)", "ci(+-%)", "batches", "i_p99(us)", "i_max(us)",
               "algbw(GB/s)", "busbw(GB/s)", "wrong", choices ? "  nccl(algo/proto xchannels)" : "");
  }
  const auto choice = nccl_choice_text(p);
  fmt::print(out_, "  {:>12} {:>12} {:>5} {:>10.2f} {:>7} {:>7} {:>10} {:>10} {:>12.2f} {:>12.2f} {:>6}{}\n",
             p.bytes, p.count, p.in_place ? "in" : "out", p.time_us.median, ci_text(p.time_us.median_ci),
             p.time_us.n, tail_text(p.iterations, &IterationTimes::p99_us),
             tail_text(p.iterations, &IterationTimes::max_us), p.algbw_gbps, p.busbw_gbps,
             p.wrong < 0 ? std::string("-") : std::to_string(p.wrong),
             choices ? "  " + (choice.empty() ? std::string("-") : choice) : std::string());
  out_.flush();
}

void ConsoleReporter::end(const Result& r) {
  std::int64_t wrong = 0;
  bool checked = false;
  for (const auto& run : r.runs) {
    double sum = 0;
    for (const auto& p : run.points) {
      sum += p.busbw_gbps;
      if (p.wrong >= 0) {
        checked = true;
        wrong += p.wrong;
      }
    }
    if (!run.points.empty() && !quiet_)
      fmt::print(out_, "# {}: average busbw {:.2f} GB/s over {} point{}\n", run_title(run),
                 sum / static_cast<double>(run.points.size()), run.points.size(),
                 run.points.size() == 1 ? "" : "s");
  }
  if (checked) fmt::print(out_, "# wrong elements: {}{}\n", wrong, wrong ? "  <-- DATA ERRORS" : "");
  if (r.status == RunStatus::failed) fmt::print(out_, "# FAILED: {}\n", r.failure);
  out_.flush();
}

}  // namespace fb
