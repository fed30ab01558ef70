#include "projection/allreduce_curve.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "core/error.hpp"
#include "core/units.hpp"

namespace fb {
namespace {

double log_interpolate(double x, double x0, double y0, double x1, double y1) {
  const double t = (std::log(x) - std::log(x0)) / (std::log(x1) - std::log(x0));
  return std::exp(std::log(y0) + t * (std::log(y1) - std::log(y0)));
}

// Where the curve was measured, in words: the tool whose output it was read from, or the run's kind.
std::string run_words(const Result& r, const Run& run) {
  if (r.source) return r.source->tool + " output";
  if (run.kind == RunKind::scale)
    return run.label.empty() ? "scale run" : fmt::format("scale run ({} placement)", run.label);
  return "collective run";
}

// The hosts of the run's ranks (the document's GPUs by rank); 1 where they are not named.
int run_host_count(const Result& r, const Run& run) {
  std::set<std::string> hosts;
  for (const auto& g : r.gpus)
    if (g.rank >= 0 && static_cast<std::size_t>(g.rank) < run.gpus.size()) hosts.insert(g.host);
  return std::max<int>(1, static_cast<int>(hosts.size()));
}

CurveSource source_of(const Result& r, const Run& run) {
  CurveSource s;
  s.hosts = run_host_count(r, run);
  s.gpus = static_cast<int>(run.gpus.size());
  s.dtype = run.dtype;
  s.graph_launches = run.graph_launches;
  s.run = run_words(r, run);
  return s;
}

bool better_curve(const AllReduceCurve& candidate, const AllReduceCurve& kept) {
  const bool graph = candidate.source().graph_launches > 0;
  const bool kept_graph = kept.source().graph_launches > 0;
  if (graph != kept_graph) return graph;
  return candidate.points().size() > kept.points().size();
}

// The point's single-operation p99 (its tail), 0 where none was measured.
double tail_p99(const Point& p) {
  return p.iterations && p.iterations->n > 0 && p.iterations->p99_us > 0 ? p.iterations->p99_us : 0;
}

}  // namespace

AllReduceCurve::AllReduceCurve(CurveSource source, std::vector<CurvePoint> points)
    : source_(std::move(source)) {
  std::stable_sort(points.begin(), points.end(),
                   [](const CurvePoint& a, const CurvePoint& b) { return a.bytes < b.bytes; });
  for (const auto& p : points) {
    if (!(p.median_us > 0) || !(p.tail_p99_us >= 0) || p.bytes == 0)
      FB_USAGE_ERROR(fmt::format("all_reduce curve: the point at {} B has no positive time", p.bytes));
    if (!points_.empty() && points_.back().bytes == p.bytes) continue;
    points_.push_back(p);
    if (p.tail_p99_us > 0) tails_.push_back(p);
  }
  if (points_.empty()) FB_USAGE_ERROR("all_reduce curve: no measured points");
  source_.min_bytes = points_.front().bytes;
  source_.max_bytes = points_.back().bytes;
  source_.points = static_cast<int>(points_.size());
  source_.tail_points = static_cast<int>(tails_.size());
}

double AllReduceCurve::tail_at(std::uint64_t bytes) const {
  if (tails_.empty() || bytes < tails_.front().bytes || bytes > tails_.back().bytes) return 0;
  const auto hi = std::lower_bound(tails_.begin(), tails_.end(), bytes,
                                   [](const CurvePoint& p, std::uint64_t b) { return p.bytes < b; });
  if (hi->bytes == bytes) return hi->tail_p99_us;
  const auto lo = std::prev(hi);
  return log_interpolate(static_cast<double>(bytes), static_cast<double>(lo->bytes), lo->tail_p99_us,
                         static_cast<double>(hi->bytes), hi->tail_p99_us);
}

AllReduceTime AllReduceCurve::at(std::uint64_t bytes) const {
  if (bytes < points_.front().bytes || bytes > points_.back().bytes)
    FB_USAGE_ERROR(fmt::format(
        "the all_reduce at {} on {} GPUs lies outside the measured sizes ({} to {}): measure it, e.g. "
        "`fabricbench run all_reduce --gpus {} -d bfloat16 -b {} -e {} --json curve.json` (never "
        "extrapolated)",
        format_bytes(bytes), source_.gpus, format_bytes(points_.front().bytes),
        format_bytes(points_.back().bytes), source_.gpus,
        size_argument(std::max<std::uint64_t>(1, std::min(bytes, points_.front().bytes))),
        size_argument(std::max(bytes, points_.back().bytes))));
  const auto hi = std::lower_bound(points_.begin(), points_.end(), bytes,
                                   [](const CurvePoint& p, std::uint64_t b) { return p.bytes < b; });
  if (hi->bytes == bytes) return {hi->median_us, tail_at(bytes)};
  const auto lo = std::prev(hi);
  return {log_interpolate(static_cast<double>(bytes), static_cast<double>(lo->bytes), lo->median_us,
                          static_cast<double>(hi->bytes), hi->median_us),
          tail_at(bytes)};
}

std::map<int, AllReduceCurve> allreduce_curves(const Result& r) {
  std::map<int, AllReduceCurve> curves;
  for (const auto& run : r.runs) {
    const bool measured = run.kind == RunKind::collective || run.kind == RunKind::scale;
    if (!measured || run.collective != "all_reduce" || !run.failure.empty() || run.points.empty()) continue;
    if (!run.forced.empty() || run.gpus.size() < 2) continue;  // NCCL's own choice, a real fabric
    std::vector<CurvePoint> points;
    for (const auto& p : run.points)
      if (p.time_us.median > 0) points.push_back({p.bytes, p.time_us.median, tail_p99(p)});
    if (points.empty()) continue;
    AllReduceCurve curve(source_of(r, run), std::move(points));
    const int gpus = curve.source().gpus;
    const auto kept = curves.find(gpus);
    if (kept == curves.end())
      curves.emplace(gpus, std::move(curve));
    else if (better_curve(curve, kept->second))
      kept->second = std::move(curve);
  }
  return curves;
}

double allreduce_bus_factor(int gpus) { return 2.0 * (gpus - 1) / gpus; }

}  // namespace fb
