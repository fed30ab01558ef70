#include "comm/nccl_log.hpp"

#include <regex>
#include <sstream>

namespace fb {

NcclLogSummary parse_nccl_log(const std::string& text) {
  static const std::regex kVersion(R"(NCCL INFO NCCL version (\d+\.\d+\.\d+))");
  static const std::regex kChoice(
      R"(NCCL INFO (\w+): (\d+) Bytes -> Algo (\w+) proto (\w+) channel\{Lo\.\.Hi\}=\{(\d+)\.\.(\d+)\})");
  static const std::regex kTransport(
      R"(NCCL INFO Channel \d+(?:/\d+)? : \d+\[\d+\] -> \d+\[\d+\](?: \[\w+\])? via (.+?)\s*$)");
  static const std::regex kChannels(
      R"(NCCL INFO (\d+) coll channels, (\d+) collnet channels, (\d+) nvls channels, (\d+) p2p channels)");
  NcclLogSummary s;
  std::istringstream in(text);
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (line.find("NCCL INFO") == std::string::npos) continue;
    if (std::regex_search(line, m, kChoice)) {
      const int lo = std::stoi(m[5]);
      const int hi = std::stoi(m[6]);
      s.choices[m[1]][std::stoull(m[2])] = {m[3], m[4], hi - lo + 1};
    } else if (std::regex_search(line, m, kTransport)) {
      s.transports.insert(m[1]);
    } else if (std::regex_search(line, m, kChannels)) {
      s.coll_channels = std::stoi(m[1]);
      s.nvls_channels = std::stoi(m[3]);
      s.p2p_channels = std::stoi(m[4]);
    } else if (s.version.empty() && std::regex_search(line, m, kVersion)) {
      s.version = m[1];
    }
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
}

}  // namespace fb
