#include "analyse/collective_verdicts.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>

#include "analyse/ceilings.hpp"
#include "analyse/gpu_names.hpp"

namespace fb {
namespace {

constexpr std::uint64_t kGi = 1ULL << 30;
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

// What healthy rings reach of the SM ceiling on a GPU fabric: nccl-tests on 2 x H200 (373.5 GB/s
// ceiling, docs/reference/h200x2-nccl-tests.json) at 256 MiB and at 1 GiB. Rings of 8 GPUs reach
// more (8 x H100: 360-370), so these floors are the lenient side.
struct Reach {
  std::string_view collective;
  double at_256m;
  double at_1g;
};
constexpr std::array<Reach, 8> kReach{{
    {"all_reduce", 300 / 373.5, 331 / 373.5},
    {"all_gather", 246 / 373.5, 271 / 373.5},
    {"reduce_scatter", 239 / 373.5, 275 / 373.5},
    {"alltoall", 285 / 373.5, 332 / 373.5},
    {"broadcast", 357 / 373.5, 364 / 373.5},
    {"sendrecv", 305 / 373.5, 361 / 373.5},
    {"gather", 352.0 / 373.5, 369.0 / 373.5},
    {"scatter", 346.4 / 373.5, 364.6 / 373.5},
}};

}  // namespace

double interval(const Point& p) { return std::isfinite(p.time_us.median_ci) ? p.time_us.median_ci : 0.0; }

bool judged_run(const Run& run) { return run.kind == RunKind::collective && run.gpus.size() >= 2; }

double fabric_reach(const std::string& collective, std::uint64_t bytes) {
  for (const auto& r : kReach)
    if (r.collective == collective) return bytes >= kGi ? r.at_1g : r.at_256m;
  return 239 / 373.5;  // a collective not measured: the lowest healthy reach above
}

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
