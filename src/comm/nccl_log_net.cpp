// Connection lines' transports and the network lines of NCCL's log (comm/nccl_log_lines.hpp).
#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "comm/nccl_log_lines.hpp"
#include "comm/nccl_log_scanner.hpp"

namespace fb::nccl_log {
namespace {

// "<rank>[<dev>]"; RCCL prints the bus id there, in hex ("7[ce000]")
bool read_peer(Scanner& sc) { return sc.run(false) && sc.literal("[") && sc.run(true) && sc.literal("]"); }

// "Channel 00/0 : 0[0] -> 1[1] [send]"
bool read_channel_and_peers(Scanner& sc) {
  if (!sc.literal("Channel ") || !sc.run(false)) return false;
  if (sc.literal("/") && !sc.run(false)) return false;
  if (!sc.literal(" : ") || !read_peer(sc) || !sc.literal(" -> ") || !read_peer(sc)) return false;
  return !sc.literal(" [") || (sc.run(true) && sc.literal("]"));
}

// Zero or more of NCCL's suffixes, in any order ("/read", "/CE", "/GDRDMA", "(PCI)", "/Shared").
void read_suffixes(Scanner& sc) {
  static constexpr std::array<std::string_view, 5> kSuffixes{"/read", "/CE", "/GDRDMA", "(PCI)", "/Shared"};
  for (bool more = true; more;)
    more = std::any_of(kSuffixes.begin(), kSuffixes.end(), [&](std::string_view x) { return sc.literal(x); });
}

// After "P2P/": direct pointer, CUMEM, MNNVL, IPC or indirect/<rank>[<dev>].
bool read_p2p(Scanner& sc) {
  if (sc.literal("indirect/")) return read_peer(sc);
  return sc.literal("direct pointer") || sc.literal("CUMEM") || sc.literal("MNNVL") || sc.literal("IPC");
}

// After "SHM/": {direct,CE}/{direct,CE}.
bool read_shm(Scanner& sc) {
  const auto side = [&] { return sc.literal("direct") || sc.literal("CE"); };
  return side() && sc.literal("/") && side();
}

// After "NET/": <name>/<dev>[(<n>)].
bool read_net_transport(Scanner& sc) {
  if (!sc.until_any("/") || !sc.literal("/") || !sc.run(false)) return false;
  return !sc.literal("(") || (sc.run(false) && sc.literal(")"));
}

// P2P, SHM and NET transports as NCCL 2.17-2.28 name them (src/transport/{p2p,shm,net}.cc).
bool read_known_transport(Scanner& sc) {
  if (sc.literal("P2P/")) return read_p2p(sc);
  if (sc.literal("SHM/")) return read_shm(sc);
  return sc.literal("NET/") && read_net_transport(sc);
}

// The transport at the start of `via`, ending at the end of the line or at a space: what follows
// a space is RCCL's " comm 0x..." or, in a pasted log, the next record joined on. nullopt when
// the text is cut (a terminal-wrapped line) or of no known form.
std::optional<std::string_view> transport_name(std::string_view via) {
  Scanner sc(via);
  const bool known_head = via.starts_with("P2P/") || via.starts_with("SHM/") || via.starts_with("NET/");
  if (!known_head) {  // another library's or a future NCCL's word: its first token
    const auto token = sc.until_any(" \t\r");
    return token && token->find('/') != std::string_view::npos ? token : std::nullopt;
  }
  if (!read_known_transport(sc)) return std::nullopt;
  read_suffixes(sc);
  if (!sc.at_end() && !sc.rest().starts_with(' ') && !sc.rest().starts_with('\t') &&
      !sc.rest().starts_with('\r'))
    return std::nullopt;
  return via.substr(0, via.size() - sc.rest().size());
}

// The NIC list, now known to be in the log (an empty one: NCCL found no device of that kind).
std::vector<NcclNic>& logged_nics(NcclLogSummary& s) {
  if (!s.nics) s.nics.emplace();
  return *s.nics;
}

void add_nics(NcclLogSummary& s, const std::vector<NcclNic>& found) {
  auto& nics = logged_nics(s);
  for (const auto& nic : found)
    if (std::find(nics.begin(), nics.end(), nic) == nics.end()) nics.push_back(nic);
}

// One "[0]mlx5_0:1/IB/SHARP" (after its " ["); the link layer is NCCL_IB_LLSTR's word.
std::optional<NcclNic> read_ib_device(Scanner& sc) {
  const auto index = sc.number();
  const auto name = index && sc.literal("]") ? sc.until_any(": ;") : std::nullopt;
  const auto port = name && sc.literal(":") ? sc.number() : std::nullopt;
  if (!port || !sc.literal("/")) return std::nullopt;
  const char* link = sc.literal("IB")            ? "IB"
                     : sc.literal("RoCE")        ? "RoCE"
                     : sc.literal("UNSPECIFIED") ? "UNSPECIFIED"
                                                 : nullptr;
  if (link == nullptr) return std::nullopt;
  const bool sharp = sc.literal("/SHARP");
  return NcclNic{"IB", static_cast<int>(*index), std::string(*name), static_cast<int>(*port), link, sharp,
                 ""};
}

// " [0]mlx5_0:1/IB/SHARP [1]mlx5_1:1/RoCE [RO]; OOB ...": the devices, then NCCL's "; OOB" (so a
// line cut short by a terminal's wrap is not read as a shorter list).
bool read_ib_devices(Scanner& sc, NcclLogSummary& s) {
  std::vector<NcclNic> found;
  while (sc.literal(" [")) {
    if (sc.literal("RO]")) break;  // relaxed ordering: the last item
    const auto nic = read_ib_device(sc);
    if (!nic) return false;
    found.push_back(*nic);
  }
  sc.skip_spaces();
  if (!sc.literal("; OOB")) return false;
  add_nics(s, found);
  return true;
}

// " [0]eth0:10.0.0.1<0> [1]eth1:..." (each address "<ip><port>", ncclSocketToString's form)
bool read_socket_devices(Scanner& sc, NcclLogSummary& s) {
  std::vector<NcclNic> found;
  while (sc.literal(" [")) {
    const auto index = sc.number();
    const auto name = index && sc.literal("]") ? sc.until_any(": ") : std::nullopt;
    const auto address = name && sc.literal(":") ? sc.until_any(" ") : std::nullopt;
    if (!address || !address->ends_with('>') || address->find('<') == std::string_view::npos) return false;
    found.push_back(
        {"Socket", static_cast<int>(*index), std::string(*name), 0, "", false, std::string(*address)});
  }
  sc.skip_spaces();
  if (!sc.at_end() && !sc.rest().starts_with('\r')) return false;
  add_nics(s, found);
  return true;
}

}  // namespace

bool read_transport(std::string_view info, NcclLogSummary& s, bool& unreadable) {
  Scanner sc(info);
  unreadable = false;
  if (!read_channel_and_peers(sc)) return false;
  if (!sc.literal(" via ")) {
    unreadable = true;
    return false;
  }
  const auto name = transport_name(sc.rest());
  if (!name) {
    unreadable = true;
    return false;
  }
  s.transports.emplace(*name);
  return true;
}

bool read_net(std::string_view info, NcclLogSummary& s) {
  Scanner sc(info);
  if (sc.literal("Using network ")) {
    const auto name = sc.rest();
    if (name.empty()) return false;
    s.network = std::string(name.substr(0, std::min<std::size_t>(name.size(), 64)));
    return true;
  }
  if (sc.literal("NET/Plugin: Loaded net plugin ")) {
    const auto name = sc.rest();
    const auto paren = name.rfind(" (");
    s.net_plugin = std::string(name.substr(0, std::min<std::size_t>(paren, 128)));
    return true;
  }
  if (sc.literal("NET/IB : ")) {
    if (sc.literal("No device found.")) {
      logged_nics(s);
      return true;
    }
    return sc.literal("Using") && read_ib_devices(sc, s);
  }
  return sc.literal("NET/Socket : Using") && read_socket_devices(sc, s);
}

}  // namespace fb::nccl_log
