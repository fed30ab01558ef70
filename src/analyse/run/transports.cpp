#include "analyse/run/transports.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analyse/scope/gpu_names.hpp"
#include "analyse/scope/run_scope.hpp"

namespace fb {
namespace {

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

}  // namespace fb
