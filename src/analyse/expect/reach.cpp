#include "analyse/expect/reach.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <string_view>

#include "analyse/expect/expectations.hpp"
#include "topo/link_rates.hpp"

namespace fb {
namespace {

constexpr std::uint64_t kMi = 1ULL << 20;
constexpr std::uint64_t kGi = 1ULL << 30;
// The sizes of the 2 x H200 rows up to 1 GiB (sku_table.cpp); from 1 GiB on, the 1 GiB row (the 4 GiB
// one is higher: the lenient side).
constexpr std::array<std::uint64_t, 4> kSizes{16 * kMi, 64 * kMi, 256 * kMi, kGi};
constexpr std::array<std::string_view, 6> kMeasured{"all_reduce", "all_gather", "reduce_scatter",
                                                    "alltoall",   "broadcast",  "sendrecv"};
// Bandwidth dominates where a healthy ring reaches at least half its 1 GiB figure.
constexpr double kBandwidthBound = 0.5;
constexpr int kH200Links = 18;

double row(std::string_view collective, std::uint64_t bytes) {
  const auto e = expected_for("NVIDIA H200", 2, collective, bytes);
  return e ? e->value : 0;
}

// The listed size a figure at `equivalent` is held to: the largest not above it, capped at 1 GiB.
std::uint64_t listed_size(std::uint64_t equivalent) {
  std::uint64_t size = 0;
  for (const auto s : kSizes)
    if (s <= equivalent) size = s;
  return size;
}

double measured_share(std::string_view collective, std::uint64_t size, bool of_ceiling) {
  const double at = row(collective, size);
  const double at_gib = row(collective, kGi);
  if (at <= 0 || at_gib <= 0 || at / at_gib < kBandwidthBound) return 0;
  return of_ceiling ? at / reach_reference_ceiling() : at / at_gib;
}

double share(const std::string& collective, std::uint64_t equivalent, bool of_ceiling) {
  const auto size = listed_size(equivalent);
  if (size == 0) return 0;
  if (std::find(kMeasured.begin(), kMeasured.end(), collective) != kMeasured.end())
    return measured_share(collective, size, of_ceiling);
  double lowest = 0;  // not measured: the lowest share of the six, where every one is judged there
  for (const auto c : kMeasured) {
    const double s = measured_share(c, size, of_ceiling);
    if (s <= 0) return 0;
    lowest = lowest == 0 ? s : std::min(lowest, s);
  }
  return lowest;
}

}  // namespace

double reach_reference_ceiling() {
  const auto* g = nvlink_generation(4);
  return kH200Links * g->data_gbps * g->sm_fraction;
}

std::uint64_t equivalent_bytes(const std::string& collective, std::uint64_t bytes, std::size_t gpus) {
  if (gpus <= 2 || collective == "sendrecv") return bytes;
  if (collective == "broadcast" || collective == "reduce") return bytes / (gpus - 1);
  return bytes * 2 / gpus;
}

double fabric_reach(const std::string& collective, std::uint64_t equivalent) {
  return share(collective, equivalent, true);
}

double size_share(const std::string& collective, std::uint64_t equivalent) {
  return share(collective, equivalent, false);
}

double interval(const Point& p) { return std::isfinite(p.time_us.median_ci) ? p.time_us.median_ci : 0.0; }

bool judged_run(const Run& run) { return run.kind == RunKind::collective && run.gpus.size() >= 2; }

std::vector<const Point*> best_per_size(const Run& run) {
  std::map<std::uint64_t, const Point*> best;
  for (const auto& p : run.points) {
    auto& b = best[p.bytes];
    if (b == nullptr || p.busbw_gbps > b->busbw_gbps) b = &p;
  }
  std::vector<const Point*> out;
  out.reserve(best.size());
  for (const auto& [bytes, p] : best) out.push_back(p);
  return out;
}

}  // namespace fb
