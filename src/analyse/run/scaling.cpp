#include "analyse/run/scaling.hpp"

#include <fmt/format.h>

#include <map>

namespace fb {
namespace {

// Scaling: busbw on more GPUs within 10% of fewer (the tolerance of analyse/expect/expectations.hpp).
constexpr double kScaleTolerance = 0.10;

}  // namespace

std::vector<Finding> check_scaling(const Result& r) {
  std::vector<Finding> out;
  std::map<std::string, double> base;  // per collective and placement: the smallest multi-GPU group
  for (const auto& run : r.runs) {
    if (run.kind != RunKind::scale || run.points.empty() || run.gpus.size() < 2) continue;
    const auto& p = run.points[0];
    double& first = base[run.collective + " " + run.label];
    if (first <= 0) {
      first = p.busbw_gbps;
      continue;
    }
    if (p.busbw_gbps < (1 - kScaleTolerance) * first)
      out.push_back(
          {"SCALE_BUSBW_DROP", Severity::warning,
           fmt::format(
               "{} on {} GPUs ({} placement): busbw {:.1f} GB/s is {:.0f}% of {:.1f} GB/s on fewer GPUs",
               run.collective, run.gpus.size(), run.label, p.busbw_gbps, p.busbw_gbps / first * 100, first),
           "busbw about constant as GPUs are added",
           "the added GPUs bring a slower link: `fabricbench topo` shows the group's weakest pair"});
  }
  return out;
}

}  // namespace fb
