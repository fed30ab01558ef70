#include "comm/nccl_log.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <string_view>

#include "core/parse_number.hpp"

namespace fb {
namespace {

// Matches NCCL's log lines left to right without backtracking: every step consumes input or
// fails, so a hostile line of any length is read in linear time and constant stack.
class Scanner {
 public:
  explicit Scanner(std::string_view s) : s_(s) {}
  bool literal(std::string_view text) {
    if (s_.substr(i_, text.size()) != text) return false;
    i_ += text.size();
    return true;
  }
  // [0-9]+, or [A-Za-z0-9_]+ when `word`.
  std::optional<std::string_view> run(bool word) {
    const auto start = i_;
    while (i_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[i_])) ||
                              (word && (std::isalpha(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_'))))
      ++i_;
    if (i_ == start) return std::nullopt;
    return s_.substr(start, i_ - start);
  }
  std::optional<std::int64_t> number() {
    const auto d = run(false);
    return d ? try_parse_whole(*d) : std::nullopt;
  }
  std::string_view rest() const { return s_.substr(i_); }

 private:
  std::string_view s_;
  std::size_t i_ = 0;
};

// Channel numbers above this are not NCCL's (it has at most 64 or so).
constexpr std::int64_t kMaxChannel = 4096;

bool channel_count(std::optional<std::int64_t> v) { return v && *v >= 0 && *v <= kMaxChannel; }

// "AllReduce: 1048576 Bytes -> Algo RING proto SIMPLE channel{Lo..Hi}={0..3}"
bool read_choice(Scanner sc, NcclLogSummary& s) {
  const auto op = sc.run(true);
  if (!op || !sc.literal(": ")) return false;
  const auto bytes = sc.number();
  if (!bytes || *bytes < 0 || !sc.literal(" Bytes -> Algo ")) return false;
  const auto algo = sc.run(true);
  if (!algo || !sc.literal(" proto ")) return false;
  const auto proto = sc.run(true);
  if (!proto || !sc.literal(" channel{Lo..Hi}={")) return false;
  const auto lo = sc.number();
  if (!channel_count(lo) || !sc.literal("..")) return false;
  const auto hi = sc.number();
  if (!channel_count(hi) || *hi < *lo || !sc.literal("}")) return false;
  s.choices[std::string(*op)][static_cast<std::uint64_t>(*bytes)] = {std::string(*algo), std::string(*proto),
                                                                     static_cast<int>(*hi - *lo + 1)};
  return true;
}

// "<rank>[<dev>]"; RCCL prints the bus id there, in hex ("7[ce000]")
bool read_peer(Scanner& sc) { return sc.run(false) && sc.literal("[") && sc.run(true) && sc.literal("]"); }

// "Channel 00/0 : 0[0] -> 1[1] [send]"
bool read_channel_and_peers(Scanner& sc) {
  if (!sc.literal("Channel ") || !sc.run(false)) return false;
  if (sc.literal("/") && !sc.run(false)) return false;
  if (!sc.literal(" : ") || !read_peer(sc) || !sc.literal(" -> ") || !read_peer(sc)) return false;
  return !sc.literal(" [") || (sc.run(true) && sc.literal("]"));
}

// RCCL ends its connection lines with the communicator: "via P2P/IPC comm 0xfb16e30 nRanks 08".
std::string_view without_rccl_comm_suffix(std::string_view via) {
  const auto at = via.find(" comm 0x");
  return at == std::string_view::npos ? via : via.substr(0, at);
}

// "Channel 00/0 : 0[0] -> 1[1] [send] via P2P/CUMEM"
bool read_transport(Scanner sc, NcclLogSummary& s) {
  if (!read_channel_and_peers(sc) || !sc.literal(" via ")) return false;
  std::string_view via = sc.rest();
  while (!via.empty() && std::isspace(static_cast<unsigned char>(via.back()))) via.remove_suffix(1);
  via = without_rccl_comm_suffix(via);
  if (via.empty()) return false;
  s.transports.emplace(via);
  return true;
}

// "24 coll channels, 24 collnet channels, 0 nvls channels, 32 p2p channels"
bool read_channels(Scanner sc, NcclLogSummary& s) {
  const auto coll = sc.number();
  if (!channel_count(coll) || !sc.literal(" coll channels, ") || !sc.run(false)) return false;
  if (!sc.literal(" collnet channels, ")) return false;
  const auto nvls = sc.number();
  if (!channel_count(nvls) || !sc.literal(" nvls channels, ")) return false;
  const auto p2p = sc.number();
  if (!channel_count(p2p) || !sc.literal(" p2p channels")) return false;
  s.coll_channels = static_cast<int>(*coll);
  s.nvls_channels = static_cast<int>(*nvls);
  s.p2p_channels = static_cast<int>(*p2p);
  return true;
}

// "NCCL version 2.28.3+cuda13.0" -> "2.28.3"
bool read_version(Scanner sc, NcclLogSummary& s) {
  if (!sc.literal("NCCL version ")) return false;
  const auto start = sc.rest();
  if (!sc.run(false) || !sc.literal(".") || !sc.run(false) || !sc.literal(".") || !sc.run(false))
    return false;
  s.version = std::string(start.substr(0, start.size() - sc.rest().size()));
  return true;
}

// --- RCCL's own lines (AMD); the fixtures in tests/fixtures/nccl/rccl-* say where each came from.

// "RCCL version 2.6.4+hip3.5" (RCCL 2.6 to 2.2x) or "RCCL version : 2.30.4-HEAD:2b22ab0" -> "2.6.4"
bool read_rccl_version(Scanner sc, NcclLogSummary& s) {
  if (!sc.literal("RCCL version ")) return false;
  sc.literal(": ");
  const auto start = sc.rest();
  if (!sc.run(false) || !sc.literal(".") || !sc.run(false) || !sc.literal(".") || !sc.run(false))
    return false;
  s.version = std::string(start.substr(0, start.size() - sc.rest().size()));
  s.library = "RCCL";
  return true;
}

// NCCL before 2.12 and RCCL of that age: "4 coll channels, 2 p2p channels, 2 p2p channels per peer"
bool read_legacy_channels(Scanner sc, NcclLogSummary& s) {
  const auto coll = sc.number();
  if (!channel_count(coll) || !sc.literal(" coll channels, ")) return false;
  const auto p2p = sc.number();
  if (!channel_count(p2p) || !sc.literal(" p2p channels")) return false;
  s.coll_channels = static_cast<int>(*coll);
  s.p2p_channels = static_cast<int>(*p2p);
  return true;
}

// RCCL's topology dump: "+ XGMI[48.0] - GPU/4C000" (indented): its model of one xGMI link.
bool read_xgmi_link(std::string_view line, NcclLogSummary& s) {
  while (!line.empty() && line.front() == ' ') line.remove_prefix(1);
  Scanner sc(line);
  if (!sc.literal("+ XGMI[")) return false;
  const auto start = sc.rest();
  if (!sc.run(false) || (sc.literal(".") && !sc.run(false))) return false;
  const auto digits = start.substr(0, start.size() - sc.rest().size());
  const auto gbps = try_parse_finite(digits);
  if (!gbps || !sc.literal("] - ")) return false;
  s.xgmi_link_gbps = std::max(s.xgmi_link_gbps, *gbps);
  return true;
}

// "Pattern 4, crossNic 0, nChannels 2, bw 24.000000/24.000000, type XGMI/PIX, sameChannels 0"
bool read_xgmi_pattern(Scanner sc, NcclLogSummary& s) {
  if (!sc.literal("Pattern ") || !sc.run(false) || !sc.literal(", crossNic ") || !sc.run(false) ||
      !sc.literal(", nChannels "))
    return false;
  const auto channels = sc.number();
  if (!channel_count(channels)) return false;
  const auto rest = sc.rest();
  const auto type = rest.find(", type ");
  if (type == std::string_view::npos) return false;
  if (rest.substr(type + 7, 5) == "XGMI/")
    s.xgmi_graph_channels = std::max(s.xgmi_graph_channels, static_cast<int>(*channels));
  return true;
}

bool read_rccl_line(std::string_view after_info, NcclLogSummary& s) {
  const Scanner sc(after_info);
  return read_legacy_channels(sc, s) || read_xgmi_pattern(sc, s) || read_xgmi_link(after_info, s) ||
         (s.version.empty() && read_rccl_version(sc, s));
}

void read_line(std::string_view line, NcclLogSummary& s) {
  static constexpr std::string_view kInfo = "NCCL INFO ";
  for (auto at = line.find(kInfo); at != std::string_view::npos; at = line.find(kInfo, at + 1)) {
    const Scanner sc(line.substr(at + kInfo.size()));
    if (read_choice(sc, s) || read_transport(sc, s) || read_channels(sc, s)) return;
    if (s.version.empty() && read_version(sc, s)) return;
    if (read_rccl_line(line.substr(at + kInfo.size()), s)) return;
  }
}

}  // namespace

NcclLogSummary parse_nccl_log(const std::string& text) {
  NcclLogSummary s;
  std::string_view rest(text);
  while (!rest.empty()) {
    const auto end = rest.find('\n');
    read_line(rest.substr(0, end), s);
    if (end == std::string_view::npos) break;
    rest.remove_prefix(end + 1);
  }
  return s;
}

void merge_nccl_logs(NcclLogSummary& into, const NcclLogSummary& other) {
  if (into.version.empty()) into.version = other.version;
  for (const auto& [op, sizes] : other.choices)
    for (const auto& [bytes, choice] : sizes) into.choices[op].emplace(bytes, choice);
  into.transports.insert(other.transports.begin(), other.transports.end());
  into.coll_channels = std::max(into.coll_channels, other.coll_channels);
  into.nvls_channels = std::max(into.nvls_channels, other.nvls_channels);
  into.p2p_channels = std::max(into.p2p_channels, other.p2p_channels);
  if (into.library.empty()) into.library = other.library;
  into.xgmi_link_gbps = std::max(into.xgmi_link_gbps, other.xgmi_link_gbps);
  into.xgmi_graph_channels = std::max(into.xgmi_graph_channels, other.xgmi_graph_channels);
}

}  // namespace fb
