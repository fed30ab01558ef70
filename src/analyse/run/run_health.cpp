#include "analyse/run/run_health.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "analyse/scope/gpu_names.hpp"
#include "analyse/scope/vendor_tools.hpp"

namespace fb {
namespace {

// The sampler aims at +-1% (docs/design.md, "Measurement"); five times that is noise worth a word.
constexpr double kNoisy = 0.05;
// Jitter: the slowest batches against the median. Healthy H200 points from 16 MiB keep p99 and max
// within 1.5x of the median (tests/fixtures/results); below 16 MiB a batch lasts about a millisecond
// and one scheduling hiccup reaches 5x (alltoall 1 MiB: p99 5.4x, max 12.9x), so there it is a hint.
constexpr double kJitterLarge = 2.0;
constexpr double kJitterSmall = 3.0;
constexpr std::uint64_t kJitterLargeBytes = 16ULL << 20;

// The tail: single operations (points' `iterations`) against their p50. An operation of 100 us or
// more moves data, and a healthy H200 kept p99 within 1.06x of p50 from there (8 B - 1 GiB on one
// H200: docs/verdicts.md); a shorter one is mostly launch, where a scheduling hiccup of the CPU is a
// multiple of it (p99 up to 3.4x p50 on the same GPU), so there it is info. Slow means at least 1% of
// the operations and at least 2 of them: one outlier is not a tail (RESULT_JITTER reads those).
constexpr double kTailLarge = 1.5;
constexpr double kTailSmall = 5.0;
constexpr double kTailDataBoundUs = 100;

// "all_reduce", "all_reduce (best)", "all_reduce (NCCL_ALGO=Ring NCCL_PROTO=LL)": the runs of one
// collective told apart (an algos sweep has one per forced setting, NCCL's choice unforced).
std::string run_name(const Run& run) {
  std::string forced;
  for (const auto& [k, v] : run.forced) forced += fmt::format("{}{}={}", forced.empty() ? "" : " ", k, v);
  if (run.kind == RunKind::algos && forced.empty()) forced = "NCCL's choice";
  const std::string what =
      !run.label.empty() && !forced.empty() ? run.label + ", " + forced : run.label + forced;
  return what.empty() ? run.collective : fmt::format("{} ({})", run.collective, what);
}

void check_lost_gpus(const Result& r, std::vector<Finding>& out) {
  std::set<int> started;
  for (const auto& g : r.gpus) started.insert(g.index);
  std::set<int> lost;
  if (r.topology && !r.topology->gpus.empty() && !spans_hosts(r))  // the topology is one host's
    for (const int g : started)
      if (r.topology->find_gpu(g) == nullptr) lost.insert(g);
  for (const auto& run : r.runs)
    for (const int g : run.gpus)
      if (!started.empty() && !started.contains(g)) lost.insert(g);
  if (lost.empty()) return;
  out.push_back(
      {"GPU_LOST", Severity::error,
       fmt::format("GPU {} named by the run but missing from {}", fmt::join(lost, ", "),
                   r.topology ? "the topology or the document's GPU list" : "the document's GPU list"),
       "every GPU the run started with present to the end",
       fmt::format("check {} for that GPU", vendor_tools(result_vendor(r)).lost_gpu)});
}

// RESULT_TAIL: single operations far slower than their p50, at least 1% of them and two (a
// straggling GPU, a noisy neighbour or a stalling host: batches' medians average them away).
void check_tail(const Run& run, const VendorTools& tools, std::vector<Finding>& out) {
  std::vector<std::string> large_sizes;
  std::vector<std::string> small_sizes;
  for (const auto& p : run.points) {
    if (!p.iterations || p.iterations->p50_us <= 0) continue;
    const auto& it = *p.iterations;
    const bool large = it.p50_us >= kTailDataBoundUs;
    const double factor = large ? kTailLarge : kTailSmall;
    const auto slow = std::count_if(it.samples_us.begin(), it.samples_us.end(),
                                    [&](double us) { return us >= factor * it.p50_us; });
    if (slow < std::max<std::ptrdiff_t>(2, (it.n + 99) / 100)) continue;
    (large ? large_sizes : small_sizes)
        .push_back(fmt::format("{} B: {} of {} operations at {:.1f}x p50 {:.1f} us or more (p99 {:.1f} us, "
                               "max {:.1f} us)",
                               p.bytes, slow, it.n, factor, it.p50_us, it.p99_us, it.max_us));
  }
  for (const bool large : {true, false}) {
    const auto& list = large ? large_sizes : small_sizes;
    if (list.empty()) continue;
    out.push_back(
        {"RESULT_TAIL", large ? Severity::warning : Severity::info,
         fmt::format("{}: single operations {}", run_name(run), fmt::join(list, "; ")),
         fmt::format("fewer than 1% (and 2) of single operations at {:.1f}x their p50 or more",
                     large ? kTailLarge : kTailSmall),
         fmt::format("some operations are much slower than the rest: a straggling GPU (its clocks: {}), "
                     "another job on the GPUs or the NICs ({}), or the launching CPUs stalling; the "
                     "points' `iterations.samples_us` show when",
                     tools.clocks, tools.processes)});
  }
}

void check_points(const Run& run, const VendorTools& tools, bool imported, std::vector<Finding>& out) {
  std::vector<std::string> unbounded;
  std::vector<std::string> jitter_large;
  std::vector<std::string> jitter_small;
  for (const auto& p : run.points) {
    const auto& t = p.time_us;
    if (!std::isfinite(t.median_ci) && !imported)  // an import says it once (imported_figures)
      unbounded.push_back(fmt::format("{} B ({} samples)", p.bytes, t.n));
    if (t.median <= 0) continue;
    const double slowest = std::max(t.p99, t.max) / t.median;
    const bool large = p.bytes >= kJitterLargeBytes;
    if (slowest >= (large ? kJitterLarge : kJitterSmall))
      (large ? jitter_large : jitter_small)
          .push_back(fmt::format("{} B: p99 {:.1f}x, max {:.1f}x the median {:.1f} us", p.bytes,
                                 t.p99 / t.median, t.max / t.median, t.median));
  }
  if (!unbounded.empty())
    out.push_back(
        {"RESULT_UNBOUNDED", Severity::info,
         fmt::format("{}: median time not bounded at {}", run_name(run), fmt::join(unbounded, ", ")),
         "at least 6 samples per point, so that the median's 95% interval exists",
         "the figures are single estimates: raise --max-time or -n before judging small differences"});
  for (const bool large : {true, false}) {
    const auto& list = large ? jitter_large : jitter_small;
    if (list.empty()) continue;
    out.push_back(
        {"RESULT_JITTER", large ? Severity::warning : Severity::info,
         fmt::format("{}: {}", run_name(run), fmt::join(list, "; ")),
         fmt::format("the slowest batches within {:.0f}x the median", large ? kJitterLarge : kJitterSmall),
         fmt::format(
             "something stalls the GPUs or the launching CPUs now and then: other jobs, CPU frequency "
             "scaling, unpinned processes (numactl), throttling ({})",
             tools.clocks)});
  }
}

// Another tool's output prints one figure per size (its mean over its iterations): one line says so for
// the document, with nothing to raise (fabricbench's flags do not apply to that tool's run).
void imported_figures(const Result& r, std::vector<Finding>& out) {
  std::size_t sizes = 0;
  for (const auto& run : r.runs)
    sizes += static_cast<std::size_t>(std::count_if(run.points.begin(), run.points.end(), [](const Point& p) {
      return !std::isfinite(p.time_us.median_ci);
    }));
  if (sizes == 0) return;
  out.push_back(
      {"RESULT_UNBOUNDED", Severity::info,
       fmt::format("{} printed one figure per size (the mean of its timed iterations): {} figure{} "
                   "without a spread or an interval",
                   r.source->tool.empty() ? "the tool" : r.source->tool, sizes, sizes == 1 ? "" : "s"),
       "an interval per size, to tell a difference under the tolerance from noise",
       "the figures are judged as printed; where a small difference matters, `fabricbench run` measures "
       "each size to a 95% interval"});
}

}  // namespace

std::vector<Finding> check_run_status(const Result& r) {
  std::vector<Finding> out;
  if (r.status == RunStatus::refused)  // a configuration fault, which host_consistency judges: not drain
    out.push_back(
        {"RUN_REFUSED", Severity::info,
         fmt::format("status refused: {}", r.failure.empty() ? std::string("no reason recorded") : r.failure),
         "hosts that agree on what NCCL needs alike on every rank",
         "fix the job's configuration (the HOST_MISMATCH_* errors say what), or run with "
         "--allow-mismatch to measure anyway"});
  else if (r.status == RunStatus::failed || !r.failure.empty())
    out.push_back({"RUN_FAILED", Severity::error,
                   fmt::format("the run ended with status {}: {}", r.status,
                               r.failure.empty() ? std::string("no reason recorded") : r.failure),
                   "a run that completes",
                   "the figures below cover only what was measured before the failure"});
  else if (r.status == RunStatus::running && (!r.runs.empty() || !r.p2p.empty()))  // not a fresh header
    out.push_back({"RUN_INCOMPLETE", Severity::warning,
                   "the document is from a run that did not finish (status running)", "status complete",
                   "rerun; the figures cover only what was measured before it stopped"});
  for (const auto& run : r.runs) {
    if (!run.failure.empty() && run.kind != RunKind::algos)
      out.push_back({"RUN_FAILED", Severity::error,
                     fmt::format("{} on GPUs {}: {}", run_name(run), run_gpu_list(r, run), run.failure),
                     "every run completes",
                     "see the failure; a run that fails on some GPUs only points at them"});
    else if (run.failure.empty() && run.points.empty() && run.kind != RunKind::algos)
      out.push_back({"RUN_INCOMPLETE", Severity::warning,
                     fmt::format("{}: no points measured", run_name(run)), "every planned size measured",
                     "rerun; a run with no points says nothing about the machine"});
  }
  check_lost_gpus(r, out);
  return out;
}

std::vector<Finding> check_data_and_noise(const Result& r) {
  std::vector<Finding> out;
  const auto& tools = vendor_tools(result_vendor(r));
  for (const auto& run : r.runs) {
    std::vector<std::string> wrong;
    std::vector<std::string> noisy;
    for (const auto& p : run.points) {
      if (p.wrong > 0)
        wrong.push_back(fmt::format("{} at {} B (of {} elements per rank)", p.wrong, p.bytes, p.count));
      if (p.bytes >= (1U << 20) && std::isfinite(p.time_us.median_ci) && p.time_us.median_ci > kNoisy)
        noisy.push_back(fmt::format("+-{:.1f}% at {} B", p.time_us.median_ci * 100, p.bytes));
    }
    if (!wrong.empty())
      out.push_back(
          {"DATA_WRONG", Severity::error,
           fmt::format("{} {}: wrong elements {}", run.collective, run.dtype, fmt::join(wrong, ", ")),
           "every element exact",
           "rerun with -c 1; repeated errors point at a GPU, a link or the NCCL build"});
    if (!noisy.empty())
      out.push_back(
          {"RESULT_NOISY", Severity::warning,
           fmt::format("{}: median time known only to {}", run.collective, fmt::join(noisy, ", ")),
           fmt::format("+-{:.0f}% or better", kNoisy * 100),
           fmt::format("something else uses the GPUs or CPUs ({}); rerun on an idle machine or raise "
                       "--max-time",
                       tools.processes)});
    check_points(run, tools, r.source.has_value(), out);
    check_tail(run, tools, out);
  }
  if (r.source) imported_figures(r, out);
  return out;
}

}  // namespace fb
