#include "analyse/verdicts.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "analyse/algo_selection.hpp"
#include "analyse/host_checks.hpp"
#include "analyse/p2p_analysis.hpp"
#include "topo/topology_checks.hpp"

namespace fb {
namespace {

constexpr std::uint64_t kLarge = 256ULL << 20;
constexpr double kBelowCeiling = 0.6;
constexpr double kNoisy = 0.05;

bool has_fabric_or_p2p(const Topology& t) {
  return std::any_of(t.pairs.begin(), t.pairs.end(),
                     [](const TopoPair& p) { return (p.p2p && *p.p2p) || p.connection.is_gpu_fabric(); });
}

}  // namespace

double ring_sm_ceiling(const Topology& t, const std::vector<int>& gpus) {
  double ceiling = 0;
  for (const auto& p : t.pairs) {
    const bool in_run = std::find(gpus.begin(), gpus.end(), p.a) != gpus.end() &&
                        std::find(gpus.begin(), gpus.end(), p.b) != gpus.end();
    if (!in_run) continue;
    if (p.sm_ceiling_gbps <= 0) return 0;  // some pair unmeasured: no honest ceiling
    ceiling = ceiling == 0 ? p.sm_ceiling_gbps : std::min(ceiling, p.sm_ceiling_gbps);
  }
  return ceiling;
}

std::vector<Finding> check_transports(const Result& r) {
  std::vector<Finding> out;
  if (!r.topology || !has_fabric_or_p2p(*r.topology)) return out;
  for (const auto& run : r.runs) {
    std::vector<std::string> slow;
    for (const auto& t : run.nccl_transports)
      if (t.rfind("SHM", 0) == 0 || t.rfind("NET", 0) == 0) slow.push_back(t);
    if (slow.empty()) continue;
    out.push_back(
        {"NCCL_FALLBACK", Severity::error,
         fmt::format("{}: NCCL connected the GPUs via {} although they have peer access or a GPU fabric",
                     run.collective, fmt::join(slow, ", ")),
         "P2P transport (P2P/CUMEM or P2P/direct) between GPUs of one machine",
         "look for NCCL_P2P_DISABLE / NCCL_P2P_LEVEL in the environment, IOMMU/ACS settings, or a container "
         "without peer access (docker --ipc=host, shared /dev/shm)"});
    break;  // one is enough: every run shares the communicator set-up
  }
  return out;
}

std::vector<Finding> check_ceilings(const Result& r) {
  std::vector<Finding> out;
  if (!r.topology) return out;
  for (const auto& run : r.runs) {
    if (run.kind != RunKind::collective || run.gpus.size() < 2) continue;
    const double ceiling = ring_sm_ceiling(*r.topology, run.gpus);
    if (ceiling <= 0) continue;
    for (const auto& p : run.points) {
      if (p.bytes < kLarge || p.busbw_gbps >= kBelowCeiling * ceiling) continue;
      out.push_back(
          {"BUSBW_BELOW_CEILING", Severity::warning,
           fmt::format("{} {} B: busbw {:.1f} GB/s is {:.0f}% of the ring's SM ceiling {:.1f} GB/s",
                       run.collective, p.bytes, p.busbw_gbps, p.busbw_gbps / ceiling * 100, ceiling),
           fmt::format("at least {:.0f}% of {:.1f} GB/s at large sizes", kBelowCeiling * 100, ceiling),
           "check the findings above (overrides, fallback transport, links down); compare `fabricbench p2p` "
           "per pair and `fabricbench algos` for a better algorithm"});
      break;  // the largest failing size speaks for the run
    }
  }
  return out;
}

std::vector<Finding> check_data_and_noise(const Result& r) {
  std::vector<Finding> out;
  for (const auto& run : r.runs) {
    std::vector<std::string> wrong;
    std::vector<std::string> noisy;
    for (const auto& p : run.points) {
      if (p.wrong > 0) wrong.push_back(fmt::format("{} at {} B", p.wrong, p.bytes));
      if (p.bytes >= (1u << 20) && std::isfinite(p.time_us.median_ci) && p.time_us.median_ci > kNoisy)
        noisy.push_back(fmt::format("+-{:.1f}% at {} B", p.time_us.median_ci * 100, p.bytes));
    }
    if (!wrong.empty())
      out.push_back(
          {"DATA_WRONG", Severity::error,
           fmt::format("{} {}: wrong elements {}", run.collective, run.dtype, fmt::join(wrong, ", ")),
           "every element exact",
           "rerun with -c 1; repeated errors point at a GPU, a link or the NCCL build"});
    if (!noisy.empty())
      out.push_back(
          {"RESULT_NOISY", Severity::warning,
           fmt::format("{}: median time known only to {}", run.collective, fmt::join(noisy, ", ")),
           fmt::format("+-{:.0f}% or better", kNoisy * 100),
           "something else uses the GPUs or CPUs (nvidia-smi, top); rerun on an idle machine or raise "
           "--max-time"});
  }
  return out;
}

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
    if (p.busbw_gbps < 0.9 * first)
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

std::vector<Finding> check_algorithms(const Result& r) {
  std::vector<AlgoConfig> configs;
  for (const auto& run : r.runs) {
    if (run.kind != RunKind::algos) continue;
    AlgoConfig c;
    if (const auto it = run.forced.find("NCCL_ALGO"); it != run.forced.end()) c.algo = it->second;
    if (const auto it = run.forced.find("NCCL_PROTO"); it != run.forced.end()) c.proto = it->second;
    c.points = run.points;
    configs.push_back(std::move(c));
  }
  return configs.empty() ? std::vector<Finding>{} : forced_beats_default(configs, 0.01, 0);
}

std::vector<Finding> analyse_result(const Result& r) {
  std::vector<Finding> out;
  auto add = [&](std::vector<Finding> f) { out.insert(out.end(), f.begin(), f.end()); };
  if (r.topology) add(check_topology(*r.topology));
  if (r.topology && !r.p2p.empty()) add(check_p2p(r.p2p, *r.topology, 0.10));
  add(check_environment(r));
  add(check_transports(r));
  add(check_ceilings(r));
  add(check_data_and_noise(r));
  add(check_scaling(r));
  add(check_algorithms(r));
  add(check_host(r));
  return out;
}

}  // namespace fb
