#include "comm/nccl_log_lines.hpp"

#include <algorithm>
#include <array>

#include "comm/nccl_log_scanner.hpp"

namespace fb::nccl_log {
namespace {

// NCCL 2.20-2.23 log the algorithm and protocol as numbers: their enums (src/include/
// nccl_common.h at v2.20.3-1 to v2.23.4-1: NCCL_ALGO_TREE 0 ... NCCL_ALGO_PAT 6, the last in
// 2.23 only; NCCL_PROTO_LL 0, LL128 1, SIMPLE 2), named as 2.24+ name them (ncclAlgoToString).
constexpr std::array<std::string_view, 7> kAlgoNames{
    "TREE", "RING", "COLLNET_DIRECT", "COLLNET_CHAIN", "NVLS", "NVLS_TREE", "PAT"};
constexpr std::array<std::string_view, 3> kProtoNames{"LL", "LL128", "SIMPLE"};

template <std::size_t N>
std::optional<std::string_view> enum_name(const std::array<std::string_view, N>& names,
                                          std::optional<std::int64_t> v) {
  if (!v || *v < 0 || *v >= static_cast<std::int64_t>(N)) return std::nullopt;
  return names[static_cast<std::size_t>(*v)];
}

// "Algo RING proto SIMPLE channel{Lo..Hi}={0..3}" (2.24+)
std::optional<NcclChoice> named_choice(Scanner& sc) {
  const auto algo = sc.run(true);
  if (!algo || !sc.literal(" proto ")) return std::nullopt;
  const auto proto = sc.run(true);
  if (!proto || !sc.literal(" channel{Lo..Hi}={")) return std::nullopt;
  const auto lo = sc.number();
  if (!channel_count(lo) || !sc.literal("..")) return std::nullopt;
  const auto hi = sc.number();
  if (!channel_count(hi) || *hi < *lo || !sc.literal("}")) return std::nullopt;
  return NcclChoice{std::string(*algo), std::string(*proto), static_cast<int>(*hi - *lo + 1)};
}

// "Algo 1 proto 2 time 34.69" (2.20-2.23): no channel count in these versions.
std::optional<NcclChoice> numbered_choice(Scanner& sc) {
  const auto algo = enum_name(kAlgoNames, sc.number());
  if (!algo || !sc.literal(" proto ")) return std::nullopt;
  const auto proto = enum_name(kProtoNames, sc.number());
  if (!proto || !sc.literal(" time ")) return std::nullopt;
  return NcclChoice{std::string(*algo), std::string(*proto), std::nullopt};
}

}  // namespace

bool read_choice(std::string_view info, NcclLogSummary& s) {
  Scanner sc(info);
  std::string op = kUnnamedOperation;
  if (const auto word = sc.run(true); word && sc.literal(": ")) {
    op = std::string(*word);
  } else {
    sc = Scanner(info);  // 2.20-2.22: the size comes first
  }
  const auto bytes = sc.number();
  if (!bytes || *bytes < 0 || !sc.literal(" Bytes -> Algo ")) return false;
  const auto rest = sc.rest();
  Scanner named(rest);
  auto choice = named_choice(named);
  if (!choice) {
    Scanner numbered(rest);
    choice = numbered_choice(numbered);
  }
  if (!choice) return false;
  s.choices[op][static_cast<std::uint64_t>(*bytes)] = *choice;
  return true;
}

bool read_channels(std::string_view info, NcclLogSummary& s) {
  Scanner sc(info);
  const auto coll = sc.number();
  if (!channel_count(coll) || !sc.literal(" coll channels, ")) return false;
  auto next = sc.number();
  if (!channel_count(next)) return false;
  if (sc.literal(" collnet channels, ")) {  // 2.20+
    next = sc.number();
    if (!channel_count(next)) return false;
  }
  std::optional<int> nvls;
  if (sc.literal(" nvls channels, ")) {  // 2.17+
    nvls = static_cast<int>(*next);
    next = sc.number();
    if (!channel_count(next)) return false;
  }
  if (!sc.literal(" p2p channels")) return false;
  s.coll_channels = static_cast<int>(*coll);
  if (nvls) s.nvls_channels = nvls;
  s.p2p_channels = static_cast<int>(*next);
  return true;
}

bool read_version(std::string_view text, NcclLogSummary& s) {
  Scanner sc(text);
  if (!sc.literal("NCCL version ")) return false;
  const auto start = sc.rest();
  if (!sc.run(false) || !sc.literal(".") || !sc.run(false) || !sc.literal(".") || !sc.run(false))
    return false;
  s.version = std::string(start.substr(0, start.size() - sc.rest().size()));
  return true;
}

bool read_nvls(std::string_view info, NcclLogSummary& s) {
  Scanner sc(info);
  if (!sc.literal("NVLS ")) return false;
  if (sc.literal("multicast support is ")) {
    const bool available = !sc.literal("not ");
    if (!sc.literal("available")) return false;
    s.nvls_available = s.nvls_available.value_or(true) && available;
    return true;
  }
  if (sc.literal("Head")) {  // "NVLS Head  0:  0  8 16": one line per head
    sc.skip_spaces();
    const auto head = sc.number();
    if (!channel_count(head) || !sc.literal(":")) return false;
    s.nvls_heads = std::max(s.nvls_heads.value_or(0), static_cast<int>(*head) + 1);
    return true;
  }
  if (!sc.literal("comm ")) return false;
  const auto rest = sc.rest();
  const auto at = rest.find(" nHeads ");
  if (at == std::string_view::npos) return true;  // 2.17-2.18: no heads in the line
  Scanner heads(rest.substr(at + 8));
  const auto n = heads.number();
  if (!channel_count(n)) return false;
  s.nvls_heads = std::max(s.nvls_heads.value_or(0), static_cast<int>(*n));
  return true;
}

}  // namespace fb::nccl_log
