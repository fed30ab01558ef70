#include "comm/nccl_log.hpp"

#include <algorithm>
#include <string_view>

#include "comm/nccl_log_lines.hpp"
#include "comm/nccl_log_scanner.hpp"

namespace fb {
namespace {

using nccl_log::Scanner;

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
  if (!nccl_log::channel_count(channels)) return false;
  const auto rest = sc.rest();
  const auto type = rest.find(", type ");
  if (type == std::string_view::npos) return false;
  if (rest.substr(type + 7, 5) == "XGMI/")
    s.xgmi_graph_channels = std::max(s.xgmi_graph_channels, static_cast<int>(*channels));
  return true;
}

bool read_rccl_line(std::string_view after_info, NcclLogSummary& s) {
  const Scanner sc(after_info);
  return read_xgmi_pattern(sc, s) || read_xgmi_link(after_info, s) ||
         (s.version.empty() && read_rccl_version(sc, s));
}

// What one line told: read, a connection line whose transport was not readable, or neither.
enum class LineRead { read, unreadable_connection, other };

LineRead read_info(std::string_view info, NcclLogSummary& s) {
  nccl_log::read_comm_suffix(info, s);
  bool unreadable = false;
  if (nccl_log::read_choice(info, s) || nccl_log::read_transport(info, s, unreadable) ||
      nccl_log::read_channels(info, s) || nccl_log::read_nvls(info, s) || nccl_log::read_net(info, s) ||
      nccl_log::read_setting(info, s) || nccl_log::read_comm(info, s))
    return LineRead::read;
  if (unreadable) return LineRead::unreadable_connection;
  if (s.version.empty() && nccl_log::read_version(info, s)) return LineRead::read;
  return read_rccl_line(info, s) ? LineRead::read : LineRead::other;
}

// NCCL up to 2.21 prints its version line bare on stdout ("NCCL version 2.19.4+cuda12.4"), which
// a launcher may tag with the rank ("[0] NCCL version ..."); rccl-tests prints RCCL's in its header
// ("RCCL version : 2.22.3-develop:f5b15f2").
bool read_bare_version(std::string_view line, NcclLogSummary& s) {
  Scanner sc(line);
  sc.skip_spaces();
  if (sc.literal("[") && !(sc.run(false) && sc.literal("]"))) return false;
  sc.skip_spaces();
  return nccl_log::read_version(sc.rest(), s) || read_rccl_version(Scanner(sc.rest()), s);
}

LineRead read_line(std::string_view line, NcclLogSummary& s) {
  static constexpr std::string_view kInfo = "NCCL INFO ";
  LineRead result = LineRead::other;
  for (auto at = line.find(kInfo); at != std::string_view::npos; at = line.find(kInfo, at + 1)) {
    result = std::min(result, read_info(line.substr(at + kInfo.size()), s));
    if (result == LineRead::read) return result;
  }
  if (result == LineRead::other && s.version.empty() && read_bare_version(line, s)) return LineRead::read;
  return result;
}

// A terminal that wrapped a long line, and a paste that kept the breaks, leave the line's end on
// the next lines: lines that hold no NCCL record of their own.
bool is_continuation(std::string_view next) {
  return !next.empty() && next.find("NCCL ") == std::string_view::npos;
}

// Pieces of one wrapped line joined back, at most this many (a 128-character line on a
// 40-column terminal), so that each line is read a bounded number of times.
constexpr std::size_t kMaxWrappedPieces = 4;

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const auto end = text.find('\n');
    lines.push_back(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

// How many of the lines from `i` on make one wrapped record (1: the line alone is a record, or no
// join reads better than it).
std::size_t wrapped_pieces(const std::vector<std::string_view>& lines, std::size_t i) {
  NcclLogSummary alone;  // each candidate is tried on an empty summary: read whole or not at all
  if (read_line(lines[i], alone) == LineRead::read || lines[i].find("NCCL INFO ") == std::string_view::npos)
    return 1;
  std::string joined(lines[i]);
  for (std::size_t k = 1; k < kMaxWrappedPieces && i + k < lines.size() && is_continuation(lines[i + k]);
       ++k) {
    joined.append(lines[i + k]);
    NcclLogSummary whole;
    if (read_line(joined, whole) == LineRead::read) return k + 1;
  }
  return 1;
}

}  // namespace

NcclLogSummary parse_nccl_log(const std::string& text) {
  NcclLogSummary s;
  const auto lines = split_lines(text);
  for (std::size_t i = 0; i < lines.size();) {
    const auto pieces = wrapped_pieces(lines, i);
    std::string line(lines[i]);
    for (std::size_t k = 1; k < pieces; ++k) line.append(lines[i + k]);
    if (read_line(line, s) == LineRead::unreadable_connection) ++s.unreadable_connections;
    if (line.find(" NCCL ") != std::string::npos) nccl_log::read_line_host(line, s);
    i += pieces;
  }
  return s;
}

void merge_nccl_logs(NcclLogSummary& into, const NcclLogSummary& other) {
  if (into.version.empty()) into.version = other.version;
  for (const auto& [op, sizes] : other.choices)
    for (const auto& [bytes, choice] : sizes) into.choices[op].emplace(bytes, choice);
  into.transports.insert(other.transports.begin(), other.transports.end());
  const auto larger = [](std::optional<int>& a, const std::optional<int>& b) {
    if (b) a = std::max(a.value_or(0), *b);
  };
  larger(into.coll_channels, other.coll_channels);
  larger(into.nvls_channels, other.nvls_channels);
  larger(into.p2p_channels, other.p2p_channels);
  larger(into.nvls_heads, other.nvls_heads);
  if (other.nvls_available) into.nvls_available = into.nvls_available.value_or(true) && *other.nvls_available;
  if (other.nics) {
    if (!into.nics) into.nics.emplace();
    for (const auto& nic : *other.nics)
      if (std::find(into.nics->begin(), into.nics->end(), nic) == into.nics->end()) into.nics->push_back(nic);
  }
  if (into.network.empty()) into.network = other.network;
  if (into.net_plugin.empty()) into.net_plugin = other.net_plugin;
  into.unreadable_connections += other.unreadable_connections;
  into.env.insert(other.env.begin(), other.env.end());
  larger(into.nranks, other.nranks);
  larger(into.nnodes, other.nnodes);
  into.hosts.insert(other.hosts.begin(), other.hosts.end());
  if (into.library.empty()) into.library = other.library;
  into.xgmi_link_gbps = std::max(into.xgmi_link_gbps, other.xgmi_link_gbps);
  into.xgmi_graph_channels = std::max(into.xgmi_graph_channels, other.xgmi_graph_channels);
}

const std::map<std::uint64_t, NcclChoice>* choices_for(const NcclLogSummary& s, const std::string& op) {
  if (const auto it = s.choices.find(op); it != s.choices.end()) return &it->second;
  if (const auto it = s.choices.find(kUnnamedOperation); it != s.choices.end()) return &it->second;
  return nullptr;
}

}  // namespace fb
