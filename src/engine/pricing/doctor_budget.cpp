#include "engine/pricing/doctor_budget.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "bench/sampler.hpp"
#include "core/units.hpp"
#include "engine/plans/algos_runner.hpp"

namespace fb {
namespace {

// Forced LL/LL128 above this size only show them losing to Simple (NCCL's choice there).
constexpr std::uint64_t kLowLatencyMaxBytes = 16ULL << 20;
constexpr std::uint64_t kScalingFloorBytes = 64ULL << 20;

double proto_factor(const std::string& proto) {
  if (proto == "LL") return 4.0;
  if (proto == "LL128") return 1.3;
  return 1.0;
}

bool low_latency(const std::string& proto) { return proto == "LL" || proto == "LL128"; }

// The configurations run_algos sweeps: NCCL's default, then the forced pairs.
std::vector<std::pair<std::string, std::string>> configs(const AlgosGrid& g) {
  std::vector<std::pair<std::string, std::string>> out{{"default", "default"}};
  for (auto& pair : forced_pairs(g.algos, g.protos, g.one_axis)) out.push_back(std::move(pair));
  return out;
}

std::string why(double estimate_s, const FabricSpeed& speed, double budget_s) {
  return budget_reason(estimate_s, speed, budget_s);
}

bool remove_one(std::vector<std::string>& list, const std::string& name) {
  const auto it = std::find(list.begin(), list.end(), name);
  if (it == list.end()) return false;
  list.erase(it);
  return true;
}

}  // namespace

std::string budget_reason(double estimate_s, const FabricSpeed& speed, double budget_s) {
  return fmt::format("estimated {:.0f} s at {:.2f} GB/s all_reduce busbw; {:.0f} s of the budget left",
                     estimate_s, speed.busbw_gbps, std::max(0.0, budget_s));
}

double estimate_nodes_s(int rounds, std::uint64_t bytes, double window_s, const FabricSpeed& speed) {
  // A round: its pairs' communicators, a few warm-up operations, then the shared window.
  constexpr int kWarmupOps = 3;
  return rounds * (speed.start_s + kWarmupOps * op_seconds(speed, bytes) + window_s);
}

double op_seconds(const FabricSpeed& speed, std::uint64_t bytes, const std::string& proto) {
  if (!speed.known()) return 0;
  return speed.latency_us * 1e-6 +
         static_cast<double>(bytes) / (speed.algbw_gbps * 1e9) * proto_factor(proto);
}

namespace {

// Whether the point's own budget (--max-time) ended its sampling: then its batch count says
// nothing about how many a point needs.
bool cut_by_budget(const Point& p) {
  return p.sampling && p.sampling->stop == to_string(SamplingStop::budget);
}

}  // namespace

FabricSpeed measure_fabric(const std::vector<Run>& runs) {
  FabricSpeed speed;
  double batches = 0;
  int points = 0;
  for (const auto& run : runs) {
    if (run.kind != RunKind::collective || run.points.empty()) continue;
    for (const auto& p : run.points) {
      if (cut_by_budget(p)) continue;
      batches += p.time_us.n;
      ++points;
    }
    if (run.collective != "all_reduce") continue;
    const auto [small, large] =
        std::minmax_element(run.points.begin(), run.points.end(),
                            [](const Point& a, const Point& b) { return a.bytes < b.bytes; });
    if (large->algbw_gbps > speed.algbw_gbps) {
      speed.algbw_gbps = large->algbw_gbps;
      speed.busbw_gbps = large->busbw_gbps;
    }
    speed.latency_us = std::max(speed.latency_us, small->time_us.median);
  }
  speed.batches = points > 0 ? batches / points : 0;
  return speed;
}

double probe_start_seconds(const std::vector<Point>& points, double took_s) {
  double ops_s = 0;
  for (const auto& p : points) {
    ops_s += p.time_us.median * 1e-6 * p.iters_per_batch * p.time_us.n;
    if (p.sampling) ops_s += p.sampling->warmup_ms * 1e-3;
  }
  return std::max(kMinStartS, took_s - ops_s);
}

double estimate_choices_s(const std::vector<std::uint64_t>& sizes, const FabricSpeed& speed) {
  double total = speed.start_s;
  for (const auto size : sizes) total += op_seconds(speed, size);
  return total;
}

double estimate_algos_s(const AlgosGrid& grid, const FabricSpeed& speed, const Sampling& sampling) {
  double total = 0;
  for (const auto& [algo, proto] : configs(grid)) {
    total += speed.start_s;
    for (const auto size : grid.sizes) {
      if (low_latency(proto) && grid.low_latency_max_bytes > 0 && size > grid.low_latency_max_bytes) continue;
      total += point_seconds(sampling, op_seconds(speed, size, proto), false, speed.batches);
    }
  }
  return total;
}

namespace {

// One algorithms grid being cut: each step checks the estimate and records what it removes.
struct AlgosFitter {
  AlgosGrid& grid;
  const FabricSpeed& speed;
  const Sampling& sampling;
  double budget_s;
  std::vector<DoctorCut>& cuts;

  [[nodiscard]] double estimate() const { return estimate_algos_s(grid, speed, sampling); }
  [[nodiscard]] bool over() const { return estimate() > budget_s; }
  void cut(std::string what) {
    cuts.push_back({"algorithms", std::move(what), why(estimate(), speed, budget_s)});
  }

  void limit_low_latency() {
    const bool has_ll = std::any_of(grid.protos.begin(), grid.protos.end(), low_latency);
    const bool large =
        std::any_of(grid.sizes.begin(), grid.sizes.end(), [](auto s) { return s > kLowLatencyMaxBytes; });
    const bool limited = grid.low_latency_max_bytes > 0 && grid.low_latency_max_bytes <= kLowLatencyMaxBytes;
    if (!over() || !has_ll || !large || limited) return;
    cut(fmt::format("forced LL/LL128 above {}", format_bytes(kLowLatencyMaxBytes)));
    grid.low_latency_max_bytes = kLowLatencyMaxBytes;
  }

  void drop_largest_sizes() {
    std::sort(grid.sizes.begin(), grid.sizes.end());
    while (over() && grid.sizes.size() > 2) {
      cut(fmt::format("{} points", format_bytes(grid.sizes.back())));
      grid.sizes.pop_back();
    }
  }

  // Forced entries of `list`, in `order`, until the grid fits; "default" stays.
  void drop_forced(std::vector<std::string>& list, const std::vector<std::string>& order, const char* kind) {
    for (const auto& name : order) {
      if (!over()) return;
      if (std::find(list.begin(), list.end(), name) == list.end()) continue;
      cut(fmt::format("forced {} {}", kind, name));
      remove_one(list, name);
      if (list.empty()) list = {"default"};
    }
  }
};

}  // namespace

AlgosGrid fit_algos(AlgosGrid grid, const FabricSpeed& speed, const Sampling& sampling, double budget_s,
                    std::vector<DoctorCut>& cuts) {
  if (!speed.known()) return grid;
  AlgosFitter fit{grid, speed, sampling, budget_s, cuts};
  fit.limit_low_latency();
  fit.drop_largest_sizes();
  fit.drop_forced(grid.protos, {"LL", "LL128", "Simple"}, "protocol");
  std::vector<std::string> algos_last_first(grid.algos.rbegin(), grid.algos.rend());
  std::erase(algos_last_first, "default");
  fit.drop_forced(grid.algos, algos_last_first, "algorithm");
  return grid;
}

double estimate_scaling_s(std::uint64_t bytes, const std::vector<int>& counts, const FabricSpeed& speed,
                          const Sampling& sampling) {
  const double group =
      speed.start_s + point_seconds(sampling, op_seconds(speed, bytes), false, speed.batches);
  return 2.0 * static_cast<double>(counts.size()) * group;  // best and worst placement of each count
}

std::uint64_t fit_scaling(std::uint64_t bytes, const std::vector<int>& counts, const FabricSpeed& speed,
                          const Sampling& sampling, double budget_s, std::vector<DoctorCut>& cuts) {
  if (!speed.known()) return bytes;
  while (bytes / 4 >= kScalingFloorBytes && estimate_scaling_s(bytes, counts, speed, sampling) > budget_s) {
    cuts.push_back({"scaling",
                    fmt::format("{} size, {} instead", format_bytes(bytes), format_bytes(bytes / 4)),
                    why(estimate_scaling_s(bytes, counts, speed, sampling), speed, budget_s)});
    bytes /= 4;
  }
  return bytes;
}

}  // namespace fb
