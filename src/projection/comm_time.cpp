#include "projection/comm_time.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdlib>
#include <optional>
#include <vector>

#include "core/error.hpp"
#include "core/units.hpp"

namespace fb {
namespace {

std::string curve_words(const AllReduceCurve& c) {
  return fmt::format("the {}-GPU all_reduce curve ({})", c.source().gpus, c.source().run);
}

bool covers(const AllReduceCurve& c, std::uint64_t bytes) {
  return bytes >= c.source().min_bytes && bytes <= c.source().max_bytes;
}

bool beyond_one_host(const CommBound& b) { return b.kind != "subset_ceiling"; }

// The curve whose time stands in at latency-bound sizes: among those measured where the TP runs (across
// hosts only a curve across hosts: a host's own fabric says nothing of the network's latency; within one
// host only one host's) and never the TP's own, which does not reach the size: the nearest GPU count
// whose sizes reach `bytes` (the larger on a tie), else the nearest (whose lookup then says what to
// measure). nullptr: none.
const AllReduceCurve* nearest_curve(const std::map<int, AllReduceCurve>& curves, int tp, bool across_hosts,
                                    std::uint64_t bytes) {
  const AllReduceCurve* best = nullptr;
  const auto better = [&](const AllReduceCurve& c) {
    if (best == nullptr) return true;
    if (covers(c, bytes) != covers(*best, bytes)) return covers(c, bytes);
    return std::abs(c.source().gpus - tp) <= std::abs(best->source().gpus - tp);
  };
  for (const auto& [gpus, curve] : curves)
    if (gpus != tp && (curve.source().hosts > 1) == across_hosts && better(curve)) best = &curve;
  return best;
}

std::string bound_words(const CommBound& b) {
  return fmt::format("{:.1f} GB/s busbw: {}", b.busbw_gbps, b.source);
}

// A smaller all_reduce than its own curve measured reaches at most the busbw of the curve's smallest size
// (busbw grows with size): the TP's own measurement as its bound (a scale run measures one size per count).
std::optional<CommBound> own_curve_bound(const AllReduceCurve& own, std::uint64_t bytes,
                                         const CommBound* model) {
  const auto& first = own.points().front();
  if (bytes >= first.bytes) return std::nullopt;  // above its sizes: no bound from it
  const int gpus = own.source().gpus;
  const double gbps = static_cast<double>(first.bytes) * allreduce_bus_factor(gpus) / (first.median_us * 1e3);
  if (model != nullptr && model->busbw_gbps > 0 && model->busbw_gbps <= gbps) return std::nullopt;
  return CommBound{gpus,
                   gbps,
                   model != nullptr ? model->kind : "subset_ceiling",
                   {},
                   fmt::format("what {} reached at its smallest size, {} (a smaller all_reduce reaches less)",
                               curve_words(own), format_bytes(first.bytes)),
                   ""};
}

// The bound a TP without a curve reaching `bytes` is held to, or a usage error naming what would give one.
CommBound bound_for(const std::map<int, AllReduceCurve>& curves, const CommBounds& bounds, int tp,
                    std::uint64_t bytes) {
  const auto handed = bounds.find(tp);
  const CommBound* model =
      handed != bounds.end() && handed->second.busbw_gbps > 0 ? &handed->second : nullptr;
  if (const auto own = curves.find(tp); own != curves.end())
    if (auto b = own_curve_bound(own->second, bytes, model)) return *b;
  if (model == nullptr)
    FB_USAGE_ERROR(fmt::format(
        "--tp {}: no all_reduce measured on {} GPUs at {} and nothing bounds one: {}", tp, tp,
        format_bytes(bytes),
        handed == bounds.end() ? "no bound was computed for that many GPUs" : handed->second.unknown));
  return *model;
}

// Refused without --assume: a TP without its own curve, or one whose curve does not reach the size.
void require_assume(const std::map<int, AllReduceCurve>& curves, int tp, std::uint64_t bytes, bool assume) {
  if (const auto own = curves.find(tp); own != curves.end()) {
    if (!assume) (void)own->second.at(bytes);  // says what to measure
    return;
  }
  std::vector<int> counts;
  counts.reserve(curves.size());
  for (const auto& [gpus, curve] : curves) counts.push_back(gpus);
  if (counts.empty())
    FB_USAGE_ERROR(fmt::format("--tp {}: the result holds no all_reduce measured on 2 or more GPUs", tp));
  if (!assume)
    FB_USAGE_ERROR(fmt::format(
        "--tp {}: the result covers all_reduce on {} GPUs only; measure on {} GPUs (`fabricbench scale "
        "all_reduce` measures each GPU count), or pass --assume to hold TP={} to the bound of {} GPUs",
        tp, fmt::join(counts, ", "), tp, tp, tp));
}

}  // namespace

double bandwidth_bound_us(std::uint64_t bytes, int gpus, double gbps) {
  return static_cast<double>(bytes) * allreduce_bus_factor(gpus) / (gbps * 1e9) * 1e6;
}

CommTime allreduce_time(const std::map<int, AllReduceCurve>& curves, const CommBounds& bounds, int tp,
                        std::uint64_t bytes, bool assume) {
  if (const auto own = curves.find(tp); own != curves.end() && covers(own->second, bytes))
    return {own->second.at(bytes), tp, "measured", 0, curve_words(own->second)};
  require_assume(curves, tp, bytes, assume);
  const CommBound b = bound_for(curves, bounds, tp, bytes);
  const std::string basis = b.kind == "given" ? "assumed" : "bounded";
  const double bound_us = bandwidth_bound_us(bytes, tp, b.busbw_gbps);
  const AllReduceCurve* shape = nearest_curve(curves, tp, beyond_one_host(b), bytes);
  if (shape == nullptr)
    return {{bound_us, 0},
            0,
            basis,
            b.busbw_gbps,
            fmt::format("{} at {}; no other all_reduce measured {} to give the latency: a lower bound", basis,
                        bound_words(b), beyond_one_host(b) ? "across hosts" : "on one host")};
  const double scale = allreduce_bus_factor(tp) / allreduce_bus_factor(shape->source().gpus);
  const double rescaled_us = shape->at(bytes).median_us * scale;
  if (bound_us >= rescaled_us)  // the bound's time: no curve's (curve_gpus 0)
    return {{bound_us, 0}, 0, basis, b.busbw_gbps, fmt::format("{} at {}", basis, bound_words(b))};
  return {{rescaled_us, 0},
          shape->source().gpus,
          "assumed",
          b.busbw_gbps,
          fmt::format("assumed: {} at equal busbw, slower here than the bound ({})", curve_words(*shape),
                      bound_words(b))};
}

}  // namespace fb
