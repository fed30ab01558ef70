#include "topo/host_probe_pci.hpp"

#include <array>
#include <utility>

namespace fb {
namespace {

constexpr std::size_t kExtendedStart = 0x100;
constexpr std::uint16_t kAcsCapabilityId = 0x000D;
constexpr int kMaxCapabilities = 96;  // (4096 - 256) / 40: more means a loop in a broken list

std::uint32_t le32(std::string_view b, std::size_t at) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < 4; ++i)
    v |= static_cast<std::uint32_t>(static_cast<unsigned char>(b[at + i])) << (8 * i);
  return v;
}

}  // namespace

AcsControl find_acs_control(std::string_view config) {
  if (config.size() < kExtendedStart) return {AcsRead::truncated, 0};
  std::size_t at = kExtendedStart;
  for (int i = 0; i < kMaxCapabilities && at + 4 <= config.size(); ++i) {
    const std::uint32_t header = le32(config, at);
    if (header == 0 || header == 0xffffffffU) break;  // no extended capabilities
    if ((header & 0xffffU) == kAcsCapabilityId) {
      if (at + 8 > config.size()) break;
      return {AcsRead::control, static_cast<std::uint16_t>(le32(config, at + 4) >> 16)};
    }
    const std::size_t next = (header >> 20) & 0xffcU;
    if (next < kExtendedStart) break;  // 0 ends the list
    at = next;
  }
  return {AcsRead::no_capability, 0};
}

std::string acs_bit_names(std::uint16_t control) {
  static const std::array<std::pair<std::uint16_t, const char*>, 7> kNames{{
      {kAcsSourceValidation, "SrcValid"},
      {kAcsTranslationBlocking, "TransBlk"},
      {kAcsRequestRedirect, "ReqRedir"},
      {kAcsCompletionRedirect, "CmpltRedir"},
      {kAcsUpstreamForwarding, "UpstreamFwd"},
      {kAcsEgressControl, "EgressCtrl"},
      {kAcsDirectTranslated, "DirectTrans"},
  }};
  std::string out;
  for (const auto& [bit, name] : kNames) {
    if ((control & bit) == 0) continue;
    if (!out.empty()) out += ' ';
    out += name;
    out += '+';
  }
  return out.empty() ? "none" : out;
}

}  // namespace fb
