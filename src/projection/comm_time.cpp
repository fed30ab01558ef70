#include "projection/comm_time.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdlib>
#include <vector>

#include "core/error.hpp"

namespace fb {
namespace {

std::string curve_words(const AllReduceCurve& c) {
  return fmt::format("the {}-GPU all_reduce curve ({})", c.source().gpus, c.source().run);
}

// The curve whose time stands in at latency-bound sizes: the nearest GPU count (the larger on a tie)
// among those measured where the TP runs: across hosts only a curve across hosts (a host's own fabric
// says nothing of the network's latency), within one host only one host's. nullptr: none.
const AllReduceCurve* nearest_curve(const std::map<int, AllReduceCurve>& curves, int tp, bool across_hosts) {
  const AllReduceCurve* best = nullptr;
  for (const auto& [gpus, curve] : curves) {
    if ((curve.source().hosts > 1) != across_hosts) continue;
    if (best == nullptr || std::abs(gpus - tp) <= std::abs(best->source().gpus - tp)) best = &curve;
  }
  return best;
}

bool beyond_one_host(const CommBound& b) { return b.kind != "subset_ceiling"; }

std::string bound_words(const CommBound& b) {
  return fmt::format("{:.1f} GB/s busbw: {}", b.busbw_gbps, b.source);
}

}  // namespace

double bandwidth_bound_us(std::uint64_t bytes, int gpus, double gbps) {
  return static_cast<double>(bytes) * allreduce_bus_factor(gpus) / (gbps * 1e9) * 1e6;
}

CommTime allreduce_time(const std::map<int, AllReduceCurve>& curves, const CommBounds& bounds, int tp,
                        std::uint64_t bytes, bool assume) {
  if (const auto own = curves.find(tp); own != curves.end())
    return {own->second.at(bytes), tp, "measured", 0, curve_words(own->second)};
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
  const auto bound = bounds.find(tp);
  if (bound == bounds.end() || !(bound->second.busbw_gbps > 0))
    FB_USAGE_ERROR(fmt::format(
        "--tp {}: no all_reduce measured on {} GPUs and nothing bounds one: {}", tp, tp,
        bound == bounds.end() ? "no bound was computed for that many GPUs" : bound->second.unknown));
  const CommBound& b = bound->second;
  const std::string basis = b.kind == "given" ? "assumed" : "bounded";
  const double bound_us = bandwidth_bound_us(bytes, tp, b.busbw_gbps);
  const AllReduceCurve* shape = nearest_curve(curves, tp, beyond_one_host(b));
  if (shape == nullptr)
    return {{bound_us, 0},
            0,
            basis,
            b.busbw_gbps,
            fmt::format("{} at {}; no all_reduce measured {} to give the latency: a lower bound", basis,
                        bound_words(b), beyond_one_host(b) ? "across hosts" : "on one host")};
  const double scale = allreduce_bus_factor(tp) / allreduce_bus_factor(shape->source().gpus);
  const double rescaled_us = shape->at(bytes).median_us * scale;
  if (bound_us >= rescaled_us)
    return {{bound_us, 0},
            shape->source().gpus,
            basis,
            b.busbw_gbps,
            fmt::format("{} at {}", basis, bound_words(b))};
  return {{rescaled_us, 0},
          shape->source().gpus,
          "assumed",
          b.busbw_gbps,
          fmt::format("assumed: {} at equal busbw, slower here than the bound ({})", curve_words(*shape),
                      bound_words(b))};
}

}  // namespace fb
