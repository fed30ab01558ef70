#pragma once
// Reads what NCCL says about itself in its debug log (NCCL_DEBUG=INFO with NCCL_DEBUG_SUBSYS
// including INIT and TUNING): its version, the algorithm/protocol/channels it chose for each
// operation size, the transport each peer connection uses, and the channel counts. RCCL (AMD)
// writes the same lines (with its communicator appended) plus its version and xGMI model.
#include <cstdint>
#include <map>
#include <set>
#include <string>

namespace fb {

struct NcclChoice {
  std::string algo;   // "RING", "TREE", ...
  std::string proto;  // "LL", "LL128", "SIMPLE"
  int channels = 0;
};

struct NcclLogSummary {
  std::string version;  // "2.28.3"
  // Operation name as NCCL logs it ("AllReduce"; CollectiveSpec::nccl_log_name maps ours to it)
  // -> bytes -> the last choice seen at that size.
  std::map<std::string, std::map<std::uint64_t, NcclChoice>> choices;
  std::set<std::string> transports;  // "P2P/CUMEM", "SHM/direct/direct", "NET/Socket/0", ...
  int coll_channels = 0;
  int nvls_channels = 0;
  int p2p_channels = 0;
  // RCCL (AMD) only, from its own INFO lines:
  std::string library;          // "RCCL" when its version line was seen, else ""
  double xgmi_link_gbps = 0;    // RCCL's model of one xGMI link ("+ XGMI[48.0] - GPU/..."), GB/s
  int xgmi_graph_channels = 0;  // channels of the largest graph searched over xGMI ("type XGMI/...")
};

NcclLogSummary parse_nccl_log(const std::string& text);
// Adds `other` (another rank's log) into `into`.
void merge_nccl_logs(NcclLogSummary& into, const NcclLogSummary& other);

}  // namespace fb
