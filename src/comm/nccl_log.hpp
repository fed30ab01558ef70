#pragma once
// Reads what NCCL says about itself in its debug log (NCCL_DEBUG=INFO with NCCL_DEBUG_SUBSYS
// including INIT and TUNING), in every generation's wording (tests/fixtures/nccl/README.md):
// its version, the algorithm/protocol/channels it chose for each operation size, the transport
// each peer connection uses, the channel counts, NVLS (NVLink SHARP) and the NICs it found. RCCL
// (AMD) writes the same lines (with its communicator appended) plus its version and xGMI model.
// A fact the log does not hold stays unset (nullopt, empty): "not in NCCL's log", never zero.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/nccl_nic.hpp"

namespace fb {

struct NcclChoice {
  std::string algo;             // "RING", "TREE", "NVLS", ... (2.24+'s names; 2.20-2.23's numbers mapped)
  std::string proto;            // "LL", "LL128", "SIMPLE"
  std::optional<int> channels;  // nullopt: NCCL before 2.24 does not log them
  bool operator==(const NcclChoice&) const = default;
};

struct NcclLogSummary {
  std::string version;  // "2.28.3"; "" when the log has no version line
  // Operation name as NCCL logs it ("AllReduce"; CollectiveSpec::nccl_log_name maps ours to it)
  // -> bytes -> the last choice seen at that size. NCCL 2.20-2.22 do not name the operation:
  // their choices are under kUnnamedOperation.
  std::map<std::string, std::map<std::uint64_t, NcclChoice>> choices;
  std::set<std::string> transports;  // "P2P/CUMEM", "SHM/direct/direct", "NET/Socket/0", ...
  std::optional<int> coll_channels;
  std::optional<int> nvls_channels;
  std::optional<int> p2p_channels;
  std::optional<bool> nvls_available;  // "NVLS multicast support is [not ]available" (any rank not: false)
  std::optional<int> nvls_heads;       // "NVLS comm ... nHeads N": NVLS was set up with N heads
  std::optional<std::vector<NcclNic>> nics;  // NET/IB and NET/Socket "Using" lines; nullopt: none logged
  std::string network;                       // "Using network IB" -> "IB"; "" when not logged
  std::string net_plugin;                    // "NET/Plugin: Loaded net plugin X (vN)" -> "X"
  int unreadable_connections = 0;            // connection lines whose transport was not readable
  // What NCCL said it took from the environment ("NCCL_ALGO set by environment to Ring"): name -> value.
  std::map<std::string, std::string> env;
  std::optional<int> nranks;    // the communicator's size ("nranks 16", "nRanks 16"); the largest logged
  std::optional<int> nnodes;    // its hosts as NCCL counts them ("nNodes 2", 2.19+)
  std::set<std::string> hosts;  // the hosts whose lines the log holds ("host:pid:tid [dev] NCCL INFO ...")
  // RCCL (AMD) only, from its own INFO lines:
  std::string library;          // "RCCL" when its version line was seen, else ""
  double xgmi_link_gbps = 0;    // RCCL's model of one xGMI link ("+ XGMI[48.0] - GPU/..."), GB/s
  int xgmi_graph_channels = 0;  // channels of the largest graph searched over xGMI ("type XGMI/...")
};

// The key of NcclLogSummary::choices for NCCL 2.20-2.22's lines, which name no operation.
inline constexpr const char* kUnnamedOperation = "";

NcclLogSummary parse_nccl_log(const std::string& text);
// Adds `other` (another rank's log) into `into`.
void merge_nccl_logs(NcclLogSummary& into, const NcclLogSummary& other);
// The choices logged for `op` ("AllReduce"), or the unnamed ones of NCCL 2.20-2.22 when the log
// named none for it; nullptr when neither is there.
const std::map<std::uint64_t, NcclChoice>* choices_for(const NcclLogSummary& s, const std::string& op);

}  // namespace fb
