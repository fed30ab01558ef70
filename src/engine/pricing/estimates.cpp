#include "engine/pricing/estimates.hpp"

#include <algorithm>

#include "analyse/expect/ceilings.hpp"
#include "bench/collective_spec.hpp"
#include "bench/sampler.hpp"
#include "core/environment.hpp"
#include "core/text.hpp"
#include "model/p2p_tests.hpp"

namespace fb {
namespace {

constexpr double kLocalCopyGbps = 1000;  // one GPU: NCCL copies within its memory (H200: 2095)
constexpr double kRingShare = 0.85;      // NCCL's busbw of its ring's SM ceiling (2 x H200: 346 of 371)
constexpr double kUnknownGbps = 10;      // no ceiling known (an unread PCIe path)
constexpr double kShmGbps = 25;          // NCCL_P2P_DISABLE=1 on 2 x H200: 25-27 GB/s
constexpr double kSocketGbps = 2;        // and NCCL_SHM_DISABLE=1: NET/Socket, 1.9-3.1 GB/s
// One small operation without graphs: 6 us on one H200 (NCCL copies locally), 8.4 us on 2 x H200
// with a process per GPU (shared/REFERENCE.md).
constexpr double kLatencyOneGpuUs = 6;
constexpr double kLatencyUs = 10;
// A further set of workers first waits for the previous one's exit (its CUDA context torn down):
// algos on one H200 took 11.4-13.3 s for 8 sets where their spawns and points come to 9.2 s.
constexpr double kWorkerExitS = 0.4;
// p2p's host side, as measured on an H200 host: a pattern written by one core, a region cleared
// or checked, 512 MiB of fresh memory pinned (its first touch included); with them the one-GPU
// p2p without latency tests came to 4.9 s.
constexpr double kHostFillGbps = 1;
constexpr double kHostTouchGbps = 10;
constexpr double kP2pSetupS = 0.2;       // CUDA context, buffers, peer access: 0.17 s on one H200
constexpr double kHostLatencyNs = 1200;  // one dependent load from pinned host memory
constexpr double kPeerLatencyNs = 900;   // and from a peer over NVLink
constexpr double kPinGbps = 1;           // cudaHostRegister of fresh pages

bool set(const std::map<std::string, std::string>& env, const char* name) {
  const auto it = env.find(name);
  return it != env.end() && it->second == "1";
}

double gb(double bytes) { return bytes / 1e9; }

}  // namespace

std::map<std::string, std::string> nccl_settings(const Plan& plan) {
  auto env = capture_comm_env();
  for (const auto& [k, v] : plan.settings.nccl_env) env.insert_or_assign(k, v);
  return env;
}

FabricSpeed prior_speed(const Topology& t, const std::vector<int>& gpus,
                        const std::map<std::string, std::string>& env) {
  FabricSpeed s;
  const int n = static_cast<int>(gpus.size());
  s.start_s = 0.35 + 0.35 * n;
  s.latency_us = n <= 1 ? kLatencyOneGpuUs : kLatencyUs;
  if (n <= 1) {
    s.algbw_gbps = kLocalCopyGbps;
    return s;
  }
  const auto ring = ring_ceiling(t, gpus);
  s.busbw_gbps = ring.known() ? ring.gbps * kRingShare : kUnknownGbps;
  if (set(env, "NCCL_P2P_DISABLE")) s.busbw_gbps = std::min(s.busbw_gbps, kShmGbps);
  if (set(env, "NCCL_P2P_DISABLE") && set(env, "NCCL_SHM_DISABLE")) s.busbw_gbps = kSocketGbps;
  s.algbw_gbps = s.busbw_gbps * n / (2.0 * (n - 1));  // all_reduce's bus factor
  return s;
}

FabricSpeed job_prior_speed(int ranks, const std::map<std::string, std::string>& env) {
  constexpr double kNetworkLatencyUs = 50;
  FabricSpeed s;
  s.start_s = 1.0 + 0.1 * ranks;
  s.latency_us = kNetworkLatencyUs;
  const auto net = env.find("NCCL_NET");
  const bool sockets = set(env, "NCCL_IB_DISABLE") || (net != env.end() && lower(net->second) == "socket");
  s.busbw_gbps = sockets ? kSocketGbps : kUnknownGbps;
  const int n = std::max(2, ranks);
  s.algbw_gbps = s.busbw_gbps * n / (2.0 * (n - 1));  // all_reduce's bus factor
  return s;
}

FabricSpeed after_other_workers(FabricSpeed speed) {
  speed.start_s += kWorkerExitS;
  return speed;
}

double estimate_plan_s(const Plan& plan, const FabricSpeed& speed) {
  double total = speed.start_s;
  const int n = plan.nranks();
  for (const auto& run : plan.runs) {
    const auto& spec = collective(run.collective);
    const double factor = n > 1 ? spec.bus_factor(n) : 0;
    for (const auto& p : run.points) {
      const double bytes = static_cast<double>(p.bytes);
      const double moved_s = factor > 0 && speed.busbw_gbps > 0 ? gb(bytes * factor) / speed.busbw_gbps
                                                                : gb(bytes) / std::max(1.0, speed.algbw_gbps);
      const double latency_s = speed.latency_us * 1e-6;
      total += point_seconds(plan.settings.sampling, latency_s + moved_s, plan.settings.check,
                             prior_batches(moved_s, latency_s, speed.batches));
    }
  }
  return total;
}

namespace {

// What each copy test of `plan` moves, in GB: its copies of its size, over its samples.
double test_gb(const P2pPlan& plan) {
  return gb(static_cast<double>(plan.bytes) * plan.copies_per_sample * plan.samples);
}

double chase_s(const P2pPlan& plan, double ns_per_hop) {
  return plan.latency ? plan.latency_hops * 1e-9 * plan.samples * ns_per_hop : 0;
}

// GPU a to GPU b: read and write, by copy engine and SM copy; both directions at once (once per
// pair); the latency from a's side.
double pair_s(const P2pPlan& plan, const TopoPair& p, bool first_of_pair) {
  const double ce = std::max(kUnknownGbps, pair_ce_ceiling(p).gbps);
  const double sm = std::max(kUnknownGbps, pair_sm_ceiling(p).gbps);
  double s = 2 * test_gb(plan) / ce + 2 * test_gb(plan) / sm;
  if (first_of_pair) s += test_gb(plan) / ce + test_gb(plan) / sm;
  return s + chase_s(plan, kPeerLatencyNs);
}

// What a GPU's host link carries as trained now, by copy engine or SM copy (10 GB/s where unknown).
double host_link_gbps(const TopoGpu* g, bool sm) {
  const auto c = g != nullptr ? host_ce_ceiling(*g, false, sm) : PathCeiling{};
  return c.known() ? c.gbps : kUnknownGbps;
}

// One GPU on its own: its host link each way by copy engine and SM copy, its memory copy, the
// host side's fill, clears and checks and the pinning of its buffer, its host latency.
double gpu_s(const P2pPlan& plan, const TopoGpu* g) {
  const double bytes = gb(static_cast<double>(plan.bytes));
  return 2 * test_gb(plan) / host_link_gbps(g, false) + 2 * test_gb(plan) / host_link_gbps(g, true) +
         test_gb(plan) / kLocalCopyGbps + bytes / kHostFillGbps + 4 * bytes / kHostTouchGbps +
         bytes / kPinGbps + chase_s(plan, kHostLatencyNs);
}

// Every GPU's host link at once, each way: shared uplinks leave about half the slowest link each.
double all_at_once_s(const P2pPlan& plan, const Topology& t) {
  double slowest = 0;
  for (const int g : plan.gpus) {
    const double link = host_link_gbps(t.find_gpu(g), false);
    slowest = slowest > 0 ? std::min(slowest, link) : link;
  }
  return 2 * test_gb(plan) / (slowest / 2);
}

}  // namespace

double estimate_p2p_s(const P2pPlan& plan, const Topology& t) {
  double total = kP2pSetupS + gb(2.0 * static_cast<double>(plan.bytes * plan.gpus.size())) / kLocalCopyGbps;
  for (const int a : plan.gpus) {
    if (plan.pairs && plan.gpus.size() > 1)
      for (const int b : plan.gpus)
        if (const auto* p = a == b ? nullptr : t.find_pair(a, b)) total += pair_s(plan, *p, a < b);
    if (plan.host) total += gpu_s(plan, t.find_gpu(a));
  }
  if (plan.host && plan.gpus.size() > 1) total += all_at_once_s(plan, t);
  return total;
}

}  // namespace fb
