// NCCL's lines about the communicator and the settings it was given: "NCCL_IB_DISABLE set by
// environment to 1." and the communicator's size ("comm 0x.. rank 0 nranks 16 cudaDev 0 ...",
// "comm 0x.. rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0").
#include <algorithm>
#include <cctype>

#include "comm/nccl_log_lines.hpp"
#include "comm/nccl_log_scanner.hpp"

namespace fb::nccl_log {
namespace {

bool is_setting_name(std::string_view name) {
  if (name.size() < 6 || !(name.starts_with("NCCL_") || name.starts_with("RCCL_"))) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return c == '_' || std::isupper(static_cast<unsigned char>(c)) != 0 ||
           std::isdigit(static_cast<unsigned char>(c)) != 0;
  });
}

// NCCL writes a number setting with a full stop after it ("to 1."), a text setting without.
std::string_view setting_value(std::string_view v) {
  while (!v.empty() && v.back() == ' ') v.remove_suffix(1);
  if (v.size() > 1 && v.back() == '.') {
    const auto digits = v.substr(v.front() == '-' ? 1 : 0, v.size() - 1 - (v.front() == '-' ? 1 : 0));
    if (!digits.empty() && std::all_of(digits.begin(), digits.end(), [](char c) {
          return std::isdigit(static_cast<unsigned char>(c)) != 0;
        }))
      v.remove_suffix(1);
  }
  return v;
}

// The communicator's size from "comm 0x.. rank R nranks N ..." (NCCL up to 2.18) or "... nRanks N
// nNodes M ..." (2.19+); the largest seen wins (a log of several communicators: the job's).
bool read_comm_size(Scanner sc, NcclLogSummary& s) {
  if (!sc.literal("comm ") || !sc.until_any(" ") || !sc.literal(" rank ") || !sc.number()) return false;
  if (!sc.literal(" nranks ") && !sc.literal(" nRanks ")) return false;
  const auto ranks = sc.number();
  if (!ranks || *ranks < 1 || *ranks > (1 << 22)) return false;
  s.nranks = std::max(s.nranks.value_or(0), static_cast<int>(*ranks));
  if (sc.literal(" nNodes ")) {
    const auto nodes = sc.number();
    if (nodes && *nodes >= 1 && *nodes <= *ranks)
      s.nnodes = std::max(s.nnodes.value_or(0), static_cast<int>(*nodes));
  }
  return true;
}

}  // namespace

bool read_setting(std::string_view info, NcclLogSummary& s) {
  const auto space = info.find(' ');
  if (space == std::string_view::npos) return false;
  const auto name = info.substr(0, space);
  if (!is_setting_name(name)) return false;
  auto rest = info.substr(space);
  for (const std::string_view words :
       {std::string_view(" set by environment to "), std::string_view(" set to ")}) {
    if (!rest.starts_with(words)) continue;
    const auto value = setting_value(rest.substr(words.size()));
    if (value.empty()) return false;
    s.env[std::string(name)] = std::string(value);
    return true;
  }
  return false;
}

void read_comm_suffix(std::string_view info, NcclLogSummary& s) {
  const auto at = info.rfind(" comm 0x");
  if (at == std::string_view::npos) return;
  Scanner sc(info.substr(at + 1));
  if (!sc.literal("comm ") || !sc.until_any(" ") || !sc.literal(" nRanks ")) return;
  const auto ranks = sc.number();
  if (ranks && *ranks >= 1 && *ranks <= (1 << 22))
    s.nranks = std::max(s.nranks.value_or(0), static_cast<int>(*ranks));
}

void read_line_host(std::string_view line, NcclLogSummary& s) {
  while (!line.empty() && line.front() == ' ') line.remove_prefix(1);
  const auto colon = line.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon > 255) return;
  Scanner sc(line.substr(colon + 1));
  if (!sc.number() || !sc.literal(":") || !sc.number() || !sc.literal(" [")) return;
  const auto host = line.substr(0, colon);
  if (host.find(' ') != std::string_view::npos || s.hosts.size() >= 4096) return;
  s.hosts.emplace(host);
}

bool read_comm(std::string_view info, NcclLogSummary& s) {
  // "ncclCommInitRank comm 0x.. rank 0 nranks 2 cudaDev 0 ... - Init START" names its call first
  if (info.starts_with("ncclCommInit") && info.find(' ') != std::string_view::npos)
    info.remove_prefix(info.find(' ') + 1);
  return read_comm_size(Scanner(info), s);
}

}  // namespace fb::nccl_log
