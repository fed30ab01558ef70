#include "analyse/run/collective_verdicts.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

#include "analyse/expect/ceilings.hpp"
#include "analyse/expect/reach.hpp"
#include "analyse/scope/gpu_names.hpp"

namespace fb {
namespace {

// See expectations.cpp: published machine-to-machine spread, the fidelity bar, our run-to-run spread.
constexpr double kTolerance = 0.10;
// Rings without a GPU fabric: what NCCL reaches of a PCIe path is not measured yet, so only a
// figure under half the ceiling (a fallback, a link at a fraction of its rate) is judged. Where
// some pair has no peer access NCCL stages through host memory (SHM): on 2 x H200 with
// NCCL_P2P_DISABLE=1 that reached 27.2 GB/s, 0.53 of the PCIe Gen5 SM ceiling; half of that,
// as the inter-socket link of two-socket boxes is not measured.
constexpr double kPcieReach = 0.5;
constexpr double kStagedReach = 0.25;

bool all_pairs_peer(const Topology& t, const std::vector<int>& gpus) {
  for (const auto& p : t.pairs) {
    const bool in = std::find(gpus.begin(), gpus.end(), p.a) != gpus.end() &&
                    std::find(gpus.begin(), gpus.end(), p.b) != gpus.end();
    if (in && p.p2p && !*p.p2p) return false;
  }
  return true;
}

}  // namespace

std::vector<Finding> check_ceilings(const Result& r) {
  std::vector<Finding> out;
  if (!r.topology) return out;
  for (const auto& run : r.runs) {
    if (!judged_run(run) || run.points.empty()) continue;
    const auto c = run_ring_ceiling(r, run);  // unknown across hosts: never held against NVLink
    if (!c.known()) continue;
    const auto& p = *std::max_element(run.points.begin(), run.points.end(),
                                      [](const Point& a, const Point& b) { return a.bytes < b.bytes; });
    if (p.bytes < kCeilingJudgedBytes) continue;
    const bool fabric = ring_on_fabric(*r.topology, run.gpus);
    const double healthy = fabric_reach(run.collective, p.bytes);  // what healthy rings reach on a fabric
    const double reach = fabric                                  ? healthy * (1 - kTolerance - interval(p))
                         : all_pairs_peer(*r.topology, run.gpus) ? kPcieReach
                                                                 : kStagedReach;
    if (p.busbw_gbps >= reach * c.gbps) continue;
    out.push_back(
        {"BUSBW_BELOW_CEILING", Severity::warning,
         fmt::format("{} {} B on GPUs {}: busbw {:.1f} GB/s is {:.0f}% of the ring's path ceiling {:.1f} "
                     "GB/s ({})",
                     run.collective, p.bytes, run_gpu_list(r, run), p.busbw_gbps, p.busbw_gbps / c.gbps * 100,
                     c.gbps, c.source),
         fabric ? fmt::format("at least {:.1f} GB/s: what healthy rings reach, {:.1f} GB/s ({:.0f}% of the "
                              "ring's ceiling {:.1f} GB/s, as the tables show it), less the tolerance",
                              reach * c.gbps, healthy * c.gbps, healthy * 100, c.gbps)
                : fmt::format("at least {:.0f}% of {:.1f} GB/s (a wide margin: NCCL's reach over PCIe is not "
                              "measured yet)",
                              reach * 100, c.gbps),
         "check the findings above (overrides, fallback transport, links down); compare `fabricbench p2p` "
         "per pair and `fabricbench algos` for a better algorithm"});
  }
  return out;
}

}  // namespace fb
