#include "ingest/tool_result.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "bench/collective_spec.hpp"
#include "core/error.hpp"
#include "core/parse_number.hpp"
#include "core/text.hpp"
#include "ingest/rank_count.hpp"

namespace fb {
namespace {

std::string version_of_code(int code) {
  if (code <= 0) return "";
  if (code < 10000) return fmt::format("{}.{}.{}", code / 1000, code % 1000 / 100, code % 100);
  return fmt::format("{}.{}.{}", code / 10000, code % 10000 / 100, code % 100);
}

// The point whose busbw/algbw ratio is known best: the largest algbw.
const ToolPoint* widest(const ToolRun& run) {
  const ToolPoint* best = nullptr;
  for (const auto& p : run.points)
    if (!best || p.algbw > best->algbw) best = &p;
  return best;
}

bool ratio_matches(const ToolPoint& p, double factor) {
  if (p.algbw < 0.5) return true;  // too few digits printed to tell
  const double slack = factor * 0.01 + 0.02 / p.algbw;
  return std::abs(p.busbw / p.algbw - factor) <= slack;
}

// The collective of a test that does not name it: the only one whose columns (a reduction op, a
// root) and bus factor on `n` GPUs fit what the table shows.
std::string infer_collective(const ToolRun& run, int n) {
  const auto* p = widest(run);
  if (!p || p->algbw < 0.5) return "";
  std::vector<std::string> fits;
  for (const auto& spec : all_collectives()) {
    if (spec.reduces == p->redop.empty()) continue;  // "none" or no redop column: it does not reduce
    if (p->root_printed && spec.rooted != (p->root >= 0)) continue;  // root -1: a test without a root
    if (ratio_matches(*p, spec.bus_factor(n))) fits.emplace_back(spec.name);
  }
  if (fits.size() != 1) return "";
  return fits.front();
}

std::string collective_or_throw(ToolRun& run, int n, const ToolImport& how) {
  if (!run.collective.empty()) return run.collective;
  if (!how.collective.empty()) {
    run.converted.push_back(fmt::format("the collective, {}, from --collective", how.collective));
    return how.collective;
  }
  if (auto c = infer_collective(run, n); !c.empty()) {
    run.converted.push_back(fmt::format(
        "the collective, {}, from the table: the only one whose columns and bus factor on {} GPUs fit", c,
        n));
    return c;
  }
  FB_USAGE_ERROR(
      fmt::format("{}: the test at line {} does not name its collective (no \"Collective test "
                  "starting\" line or *_perf command before it): pass --collective NAME",
                  how.file, run.first_line));
}

int rank_count(ToolRun& run, const ToolImport& how) {
  const auto counted = count_ranks(run, how.command);
  if (!counted.note.empty()) run.converted.push_back(counted.note);
  if (counted.ranks > 0) return counted.ranks;
  if (how.gpus.count > 0) return how.gpus.count;
  FB_USAGE_ERROR(
      fmt::format("{}: the test at line {} lists no \"# Rank\" lines and its header and command line do not "
                  "count its GPUs: pass --gpu \"N x NAME\"",
                  how.file, run.first_line));
}

TimeStats time_of(const ToolPoint& p) {
  TimeStats t;
  t.min = t.median = t.mean = t.p99 = t.max = p.time_us;
  if (p.iterations) {
    t.min = p.iterations->min_us;
    t.p99 = p.iterations->p99_us;
    t.max = p.iterations->max_us;
  }
  t.median_ci = std::numeric_limits<double>::infinity();  // one figure: the tool's mean
  t.n = 1;
  return t;
}

Point point_of(const ToolPoint& tp, double factor, int iters) {
  Point p;
  p.bytes = tp.bytes;
  p.count = tp.count;
  p.in_place = tp.in_place;
  p.time_us = time_of(tp);
  // The printed algbw where it has three digits or more, else size over time (8 B in 9 us prints 0.00).
  p.algbw_gbps =
      tp.algbw >= 1 || tp.time_us <= 0 ? tp.algbw : static_cast<double>(tp.bytes) / (tp.time_us * 1e3);
  if (!std::isfinite(p.algbw_gbps)) p.algbw_gbps = tp.algbw;
  p.busbw_gbps = p.algbw_gbps * factor;
  p.wrong = tp.wrong.value_or(-1);
  p.iters_per_batch = iters;
  if (tp.iterations && !tp.iterations->samples_us.empty()) {
    const auto& it = *tp.iterations;
    p.iterations = IterationTimes{
        "events",     static_cast<int>(it.samples_us.size()), it.p50_us.value_or(0), it.p99_us, it.max_us,
        it.samples_us};
  }
  return p;
}

// The tool's busbw against fabricbench's bus factor: where every row differs, the tool's factor does
// and busbw is recomputed, said so; where a few rows differ from the rest, those rows are damaged
// (a figure cut or run together) and are left out, named.
void check_bus_factor(ToolRun& run, const CollectiveSpec& spec, int n) {
  const double factor = spec.bus_factor(n);
  std::size_t readable = 0, differing = 0;
  for (const auto& p : run.points) {
    readable += p.algbw >= 0.5 ? 1 : 0;
    differing += ratio_matches(p, factor) ? 0 : 1;
  }
  if (differing == 0) return;
  if (differing == readable) {
    const auto& p = *widest(run);
    run.converted.push_back(fmt::format(
        "busbw recomputed as algbw x {:.4g} (fabricbench's bus factor for {} on {} GPUs): the file's "
        "busbw/algbw is {:.4g} at {} B",
        factor, spec.name, n, p.busbw / p.algbw, p.bytes));
    return;
  }
  std::erase_if(run.points, [&](const ToolPoint& p) {
    if (ratio_matches(p, factor)) return false;
    run.skipped.push_back(
        fmt::format("line {}: busbw {:.2f} is not algbw {:.2f} x {:.4g} as in the test's other "
                    "rows: a damaged row",
                    p.line, p.busbw, p.algbw, factor));
    return true;
  });
}

}  // namespace

GivenGpus parse_given_gpus(const std::string& text) {
  GivenGpus g;
  std::string name = text;
  const auto x = lower(text).find('x');
  if (x != std::string::npos && x > 0) {
    auto count = text.substr(0, x);
    while (!count.empty() && count.back() == ' ') count.pop_back();
    if (const auto n = try_parse_whole(count); n) {
      if (*n < 1 || *n > 4096) FB_USAGE_ERROR(fmt::format("--gpu: {} GPUs is not in 1..4096", *n));
      g.count = static_cast<int>(*n);
      name = text.substr(x + 1);
    }
  }
  name.erase(0, name.find_first_not_of(' '));
  while (!name.empty() && name.back() == ' ') name.pop_back();
  if (name.empty())
    FB_USAGE_ERROR(fmt::format("--gpu '{}': give the GPU's name, e.g. \"8 x H100 80GB HBM3\"", text));
  g.name = name;
  return g;
}

namespace {

void add_gpus(Result& r, ToolRun& run, int n, const GivenGpus& given, Run& out) {
  for (auto d : devices_of_ranks(run, n, given.name, run.converted)) {
    if (d.name.empty()) d.name = given.name;
    out.gpus.push_back(d.device);
    bool known = false;
    for (const auto& g : r.gpus) known |= g.host == d.host && g.index == d.device && g.rank == d.rank;
    if (!known) r.gpus.push_back({d.device, d.rank, d.name, d.bus_id, 0, 0, d.host});
  }
}

void add_run(Result& r, ToolRun& run, const ToolImport& how) {
  const int n = rank_count(run, how);
  const auto& spec = collective(collective_or_throw(run, n, how));
  check_bus_factor(run, spec, n);
  Run out;
  out.kind = RunKind::collective;
  out.collective = std::string(spec.name);
  out.dtype = run.points.front().type;
  out.op = spec.reduces ? run.points.front().redop : "";
  const int root = run.points.front().root;
  out.root = spec.rooted && root >= 0 && root < n ? root : 0;
  out.graph_launches = run.graph_launches;
  add_gpus(r, run, n, how.gpus, out);
  const double factor = spec.bus_factor(n);
  for (const auto& p : run.points) out.points.push_back(point_of(p, factor, run.iters));
  if (run.wrong_is_max_error && run.out_of_bounds.value_or(0) > 0)
    out.failure = fmt::format(
        "{} reported {} out-of-bounds values (its check FAILED); its error column is a "
        "largest difference, not a count of wrong elements",
        run.tool.empty() ? "the test" : run.tool, *run.out_of_bounds);
  r.runs.push_back(std::move(out));
}

std::string tool_of(const ToolRun& run) {
  if (!run.tool.empty()) return run.tool;
  for (const auto& d : run.devices)
    for (const char* amd : {"AMD", "Radeon", "Instinct"})
      if (d.name.find(amd) != std::string::npos) return "rccl-tests";
  return "nccl-tests";
}

void add_unique(std::vector<std::string>& into, const std::vector<std::string>& from,
                const std::string& prefix) {
  for (const auto& s : from)
    if (std::find(into.begin(), into.end(), prefix + s) == into.end()) into.push_back(prefix + s);
}

ImportSource source_of(const std::vector<ToolRun>& runs, const ToolImport& how) {
  ImportSource src;
  src.file = how.file;
  std::set<std::string> versions;
  for (const auto& run : runs) {
    if (src.tool.empty() && !run.points.empty()) src.tool = tool_of(run);
    if (!run.tool_version.empty()) versions.insert(run.tool_version);
    const auto prefix = runs.size() > 1 ? fmt::format("test at line {}: ", run.first_line) : "";
    add_unique(src.converted, run.converted, "");
    add_unique(src.skipped, run.skipped, prefix);
    add_unique(src.unknown, run.unknown, "");
    if (run.points.empty())
      src.skipped.push_back(prefix + (run.failure.empty() ? "no readable row: the test left out"
                                                          : "no row: the tool failed before its first"));
  }
  if (src.tool.empty() && !runs.empty()) src.tool = tool_of(runs.front());
  const bool any_row =
      std::any_of(runs.begin(), runs.end(), [](const ToolRun& t) { return !t.points.empty(); });
  if (any_row)  // said once for the file, not once per size
    src.converted.emplace_back(
        "each size is the tool's one figure (the mean of its timed iterations): no spread and no interval, "
        "so "
        "each point's n is 1");
  src.version = fmt::format("{}", fmt::join(versions, ", "));
  return src;
}

}  // namespace

namespace {

[[noreturn]] void no_readable_row(const std::vector<ToolRun>& runs, const ToolImport& how) {
  std::string why = runs.empty() || runs.front().skipped.empty() ? "" : ": " + runs.front().skipped.front();
  bool short_rows = false;
  for (const auto& run : runs)
    for (const auto& s : run.skipped) short_rows |= s.find("of the table's") != std::string::npos;
  FB_USAGE_ERROR(fmt::format("{}: no readable row in the output's table{}{}", how.file, why,
                             short_rows ? " (rows shorter than the heading: a truncated or terminal-wrapped "
                                          "paste? give the file the tool wrote)"
                                        : ""));
}

// The tool's own failure line, where it died ("" when no test failed).
std::string failure_text(const std::vector<ToolRun>& runs) {
  for (const auto& run : runs) {
    if (run.failure.empty()) continue;
    const auto when = run.points.empty()
                          ? std::string("before its first row")
                          : fmt::format("after {} (the last at {} B)",
                                        run.points.size() == 1 ? std::string("1 row")
                                                               : fmt::format("{} rows", run.points.size()),
                                        run.points.back().bytes);
    return fmt::format(
        "{} failed {}: line {}: \"{}\"{}", tool_of(run), when, run.failure_line, run.failure,
        run.failure_lines > 1 ? fmt::format(" ({} failure lines in all)", run.failure_lines) : "");
  }
  return "";
}

void set_host(Result& r, const ToolRun& first) {
  r.host.hostname = first.devices.empty() ? "" : first.devices.front().host;
  r.host.comm.name =
      first.library.empty() ? (tool_of(first) == "rccl-tests" ? "RCCL" : "NCCL") : first.library;
  r.host.comm.version_code = first.library_code;
  r.host.comm.version =
      first.library_version.empty() ? version_of_code(first.library_code) : first.library_version;
}

}  // namespace

// A test that died before its first row: the document names the failure and the GPUs it listed.
Result failed_before_rows(std::vector<ToolRun>& runs, const ToolImport& how) {
  Result r;
  r.status = RunStatus::failed;
  r.failure = failure_text(runs);
  const auto listed = std::max_element(runs.begin(), runs.end(), [](const ToolRun& a, const ToolRun& b) {
    return a.devices.size() < b.devices.size();
  });
  for (const auto& d : listed->devices) r.gpus.push_back({d.device, d.rank, d.name, d.bus_id, 0, 0, d.host});
  r.source = source_of(runs, how);
  set_host(r, *listed);
  return r;
}

Result result_from_tool_runs(std::vector<ToolRun> runs, const ToolImport& how) {
  const auto first =
      std::find_if(runs.begin(), runs.end(), [](const ToolRun& t) { return !t.points.empty(); });
  const bool failed =
      std::any_of(runs.begin(), runs.end(), [](const ToolRun& t) { return !t.failure.empty(); });
  if (first == runs.end() && failed) return failed_before_rows(runs, how);
  if (first == runs.end()) no_readable_row(runs, how);
  Result r;
  r.status = failed ? RunStatus::failed : RunStatus::complete;
  r.failure = failure_text(runs);
  for (auto& run : runs)
    if (!run.points.empty()) add_run(r, run, how);
  r.source = source_of(runs, how);
  set_host(r, *first);
  bool named = false;
  for (const auto& g : r.gpus) named |= !g.name.empty();
  if (!named) r.source->unknown.emplace_back("the GPU model: the output names none: pass --gpu \"N x NAME\"");
  return r;
}

}  // namespace fb
