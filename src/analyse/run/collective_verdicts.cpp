#include "analyse/run/collective_verdicts.hpp"

#include <fmt/format.h>

#include <optional>

#include "analyse/expect/hardware_bound.hpp"
#include "analyse/expect/reach.hpp"
#include "analyse/expect/what_ran.hpp"
#include "analyse/scope/gpu_names.hpp"

namespace fb {
namespace {

// The point of a run furthest below its bound, and the one furthest above its physical ceiling.
struct Extremes {
  const Point* below = nullptr;
  std::optional<HardwareBound> below_bound;
  const Point* above = nullptr;
  double above_ceiling = 0;
  std::string above_words;
};

Extremes extremes(const Result& r, const Run& run) {
  Extremes x;
  for (const Point* p : best_per_size(run)) {
    const auto w = what_ran(r, run, *p);
    std::string words;
    const double ceiling = physical_ceiling(r, run, w, &words);
    if (ceiling > 0 && p->busbw_gbps > ceiling * (1 + kAboveMargin + interval(*p)) &&
        (x.above == nullptr || p->busbw_gbps / ceiling > x.above->busbw_gbps / x.above_ceiling)) {
      x.above = p;
      x.above_ceiling = ceiling;
      x.above_words = words;
    }
    const auto b = hardware_bound(r, run, *p, w);
    if (!b || p->busbw_gbps >= b->floor()) continue;
    if (x.below == nullptr || p->busbw_gbps / b->reach < x.below->busbw_gbps / x.below_bound->reach) {
      x.below = p;
      x.below_bound = b;
    }
  }
  return x;
}

Finding below_ceiling(const Result& r, const Run& run, const Point& p, const HardwareBound& b) {
  return {
      "BUSBW_BELOW_CEILING", Severity::warning,
      fmt::format("{} {} B on GPUs {}: busbw {:.1f} GB/s is {:.0f}% of the ring's path ceiling {:.1f} GB/s "
                  "and {:.0f}% of what a healthy run reaches there, {:.1f} GB/s ({})",
                  run.collective, p.bytes, run_gpu_list(r, run), p.busbw_gbps, p.busbw_gbps / b.ceiling * 100,
                  b.ceiling, p.busbw_gbps / b.reach * 100, b.reach, b.source),
      fmt::format(
          "at least {:.1f} GB/s: what a healthy run reaches, {:.1f} GB/s ({:.0f}% of the ring's ceiling "
          "{:.1f} GB/s), less {:.0f}% (the tolerance and the point's interval)",
          b.floor(), b.reach, b.reach / b.ceiling * 100, b.ceiling, b.tolerance * 100),
      "check the findings above (overrides, fallback transport, links down); compare `fabricbench p2p` "
      "per pair and `fabricbench algos` for a better algorithm"};
}

Finding above_ceiling(const Result& r, const Run& run, const Extremes& x) {
  const auto& p = *x.above;
  return {
      "BUSBW_ABOVE_CEILING", Severity::warning,
      fmt::format("{} {} B on {} x {} (GPUs {}): busbw {:.1f} GB/s is {:.0f}% of {}: more than these GPUs' "
                  "links carry",
                  run.collective, p.bytes, run.gpus.size(), gpu_name(r, run.gpus), run_gpu_list(r, run),
                  p.busbw_gbps, p.busbw_gbps / x.above_ceiling * 100, x.above_words),
      fmt::format("at most {:.1f} GB/s: the ceiling plus {:.0f}% (the tools' fidelity bar) and the point's "
                  "interval",
                  x.above_ceiling * (1 + kAboveMargin + interval(p)), kAboveMargin * 100),
      "the GPUs are not what the document names (check --gpu or the output's device lines), the size or "
      "the collective was read wrong, or the ceiling is: the topology (--topo FILE) says which links join "
      "them"};
}

}  // namespace

std::vector<Finding> check_ceilings(const Result& r) {
  std::vector<Finding> out;
  for (const auto& run : r.runs) {
    if (!judged_run(run) || run.points.empty()) continue;
    const auto x = extremes(r, run);
    if (x.below != nullptr) out.push_back(below_ceiling(r, run, *x.below, *x.below_bound));
    if (x.above != nullptr) out.push_back(above_ceiling(r, run, x));
  }
  return out;
}

}  // namespace fb
