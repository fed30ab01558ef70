#include "analyse/verdicts.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "analyse/algo_selection.hpp"
#include "analyse/ceilings.hpp"
#include "analyse/check_sentences.hpp"
#include "analyse/collective_verdicts.hpp"
#include "analyse/gpu_names.hpp"
#include "analyse/host_checks.hpp"
#include "analyse/hosts/host_consistency.hpp"
#include "analyse/hosts/host_verdicts.hpp"
#include "analyse/hosts/nodes_check.hpp"
#include "analyse/network/net_checks.hpp"
#include "analyse/network/nic_checks.hpp"
#include "analyse/p2p_analysis.hpp"
#include "analyse/p2p_expectations.hpp"
#include "analyse/run_health.hpp"
#include "analyse/run_scope.hpp"
#include "analyse/verdict_contract.hpp"
#include "topo/topology_checks.hpp"

namespace fb {
namespace {

// Scaling: busbw on more GPUs within 10% of fewer (the tolerance of analyse/expectations.cpp).
constexpr double kScaleTolerance = 0.10;

bool has_peer_path(const TopoPair& p) { return (p.p2p && *p.p2p) || p.connection.is_gpu_fabric(); }

Finding fallback_with_peers(const Run& run, const std::vector<std::string>& slow,
                            const std::vector<std::string>& peer) {
  return {
      "NCCL_FALLBACK", Severity::error,
      fmt::format("{}: NCCL connected the GPUs via {} although every pair of the run has peer access or a "
                  "GPU fabric: {}",
                  run.collective, fmt::join(slow, ", "), fmt::join(peer, ", ")),
      "P2P transport (P2P/CUMEM or P2P/direct) between GPUs with peer access",
      "look for NCCL_P2P_DISABLE / NCCL_P2P_LEVEL in the environment, IOMMU/ACS settings, or a container "
      "without peer access (docker --ipc=host, shared /dev/shm)"};
}

// Some pairs lack peer access: host memory is NCCL's path between them. Across CPU sockets that is the
// platform's design (PCIe peer traffic does not cross the inter-socket link on most servers), so it is
// said as expected; within a socket it has a cause to look for.
Finding fallback_for_some_pairs(const Run& run, const std::vector<std::string>& slow,
                                const std::vector<std::string>& peer, const std::vector<std::string>& no_peer,
                                bool across_sockets) {
  if (across_sockets)
    return {
        "NCCL_FALLBACK", Severity::info,
        fmt::format("{}: NCCL uses {} between the GPUs that cannot reach each other peer to peer across CPU "
                    "sockets: {}; expected for this topology (pairs with peer access: {})",
                    run.collective, fmt::join(slow, ", "), fmt::join(no_peer, ", "), fmt::join(peer, ", ")),
        "host memory (SHM) between GPUs on different CPU sockets, P2P between the others: as here",
        "nothing to fix; to keep a job's traffic peer to peer, place its ranks on GPUs of one socket "
        "(fabricbench scale --placement best)"};
  return {"NCCL_FALLBACK", Severity::info,
          fmt::format("{}: NCCL uses {}; pairs without peer access: {} (pairs with it: {})", run.collective,
                      fmt::join(slow, ", "), fmt::join(no_peer, ", "), fmt::join(peer, ", ")),
          "P2P transport (P2P/CUMEM or P2P/direct) between GPUs with peer access",
          "pairs of one socket without peer access: look at IOMMU/ACS settings (HOST_ACS_REDIRECT, "
          "HOST_IOMMU_TRANSLATION) or a VM without P2P passthrough"};
}

}  // namespace

double ring_sm_ceiling(const Topology& t, const std::vector<int>& gpus) { return ring_ceiling(t, gpus).gbps; }

std::vector<Finding> check_transports(const Result& r) {
  std::vector<Finding> out;
  // Across hosts NET is how the hosts meet, and the topology's pairs are one host's.
  if (!r.topology || spans_hosts(r)) return out;
  for (const auto& run : r.runs) {
    std::vector<std::string> slow;
    for (const auto& t : run.nccl_transports)
      if (t.rfind("SHM", 0) == 0 || t.rfind("NET", 0) == 0) slow.push_back(t);
    if (slow.empty()) continue;
    // Judged on the run's own pairs: SHM is NCCL's normal path between GPUs without peer access.
    const auto scope = scoped_topology(*r.topology, run.gpus);
    std::vector<std::string> peer;
    std::vector<std::string> no_peer;
    bool all_across_sockets = true;  // every pair without peer access crosses CPU sockets (SYS)
    for (const auto& p : scope.pairs) {
      (has_peer_path(p) ? peer : no_peer).push_back(fmt::format("GPU{}-GPU{} ({})", p.a, p.b, p.connection));
      if (!has_peer_path(p) && p.pcie_class != "SYS") all_across_sockets = false;
    }
    if (peer.empty()) continue;
    out.push_back(no_peer.empty() ? fallback_with_peers(run, slow, peer)
                                  : fallback_for_some_pairs(run, slow, peer, no_peer, all_across_sockets));
    break;  // one is enough: every run shares the communicator set-up
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

std::vector<Finding> check_algorithms(const Result& r) {
  std::vector<AlgoConfig> configs;
  for (const auto& run : r.runs) {
    if (run.kind != RunKind::algos) continue;
    AlgoConfig c;
    if (const auto it = run.forced.find("NCCL_ALGO"); it != run.forced.end()) c.algo = it->second;
    if (const auto it = run.forced.find("NCCL_PROTO"); it != run.forced.end()) c.proto = it->second;
    c.points = run.points;
    c.failure = run.failure;
    configs.push_back(std::move(c));
  }
  return configs.empty() ? std::vector<Finding>{} : forced_beats_default(configs, 0.01, 0);
}

std::vector<Finding> check_one_gpu(const Result& r) {
  const auto gpus = run_gpus(r);
  // Across hosts every host has a GPU 0: one index there is still several GPUs.
  if (gpus.size() != 1 || spans_hosts(r)) return {};
  return {{"ONE_GPU", Severity::info,
           fmt::format("the run used one GPU (GPU{}): there is no interconnect to measure; what the GPU has "
                       "on its own (its host link, memory copy and latency) and local checks only",
                       gpus.front()),
           "two or more GPUs to judge collectives and pairs",
           "to measure an interconnect, run on two or more GPUs of one machine (all of them visible), or "
           "across hosts under mpirun, torchrun or srun (`run` and `algos`)"}};
}

std::vector<Finding> analyse_result(const Result& r) {
  std::vector<Finding> out;
  auto add = [&](std::vector<Finding> f) { out.insert(out.end(), f.begin(), f.end()); };
  add(check_run_status(r));
  add(check_transports(r));
  add(check_net_transport(r));
  if (r.topology) {
    const auto scope = scoped_topology(*r.topology, run_gpus(r));
    auto topo = check_topology(scope);
    escalate_link_findings(r, topo);
    add(std::move(topo));
    if (!r.p2p.empty()) add(check_p2p(r.p2p, scope, kPeerMargin));
  }
  add(check_p2p_expectations(r));
  add(check_environment(r));
  add(check_ceilings(r));
  add(check_expectations(r));
  add(check_data_and_noise(r));
  add(check_scaling(r));
  add(check_algorithms(r));
  add(check_one_gpu(r));
  add(compare_hosts(r.hosts));
  add(check_nodes(r));
  add(check_host(r));
  add(check_nics(r));
  // The most severe first; within a severity, the order above (the cause before its effects).
  std::stable_sort(out.begin(), out.end(),
                   [](const Finding& a, const Finding& b) { return a.severity > b.severity; });
  return out;
}

void judge_result(Result& r) {
  r.findings = analyse_result(r);
  r.verdict = verdict_of(r, r.findings);
  r.rules_version = kRulesVersion;
  explain_passed_checks(r);
  if (!r.hosts.empty()) {
    judge_host_sections(r);
    fold_host_verdicts(r);
  }
}

}  // namespace fb
