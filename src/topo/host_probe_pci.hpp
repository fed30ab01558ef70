#pragma once
// PCIe Access Control Services (ACS) from a device's configuration space, as sysfs gives it
// (/sys/bus/pci/devices/<bdf>/config). Layout (PCI Express Base Specification, 7.7.8 / 6.12):
// extended capabilities start at 0x100, each with a 32-bit header (bits 15:0 the capability
// ID, 19:16 its version, 31:20 the next capability's offset); ACS has ID 0x000D, its Capability
// register at +4 (16 bits) and its Control register at +6 (16 bits), little-endian.
#include <cstdint>
#include <string>
#include <string_view>

namespace fb {

// ACS Control register bits (the same names lspci prints after "ACSCtl:").
inline constexpr std::uint16_t kAcsSourceValidation = 0x0001;     // SrcValid
inline constexpr std::uint16_t kAcsTranslationBlocking = 0x0002;  // TransBlk
inline constexpr std::uint16_t kAcsRequestRedirect = 0x0004;      // ReqRedir
inline constexpr std::uint16_t kAcsCompletionRedirect = 0x0008;   // CmpltRedir
inline constexpr std::uint16_t kAcsUpstreamForwarding = 0x0010;   // UpstreamFwd
inline constexpr std::uint16_t kAcsEgressControl = 0x0020;        // EgressCtrl
inline constexpr std::uint16_t kAcsDirectTranslated = 0x0040;     // DirectTrans
// The bits that send peer-to-peer traffic up to the root complex (or block it) instead of
// letting the switch or root port route it straight to the peer.
inline constexpr std::uint16_t kAcsRedirectsPeerTraffic =
    kAcsRequestRedirect | kAcsCompletionRedirect | kAcsEgressControl;

enum class AcsRead {
  control,        // the Control register was read
  no_capability,  // the device has no ACS capability (or no extended config space)
  truncated,      // the image stops before 0x100: sysfs gives other users than root 64 bytes
};

struct AcsControl {
  AcsRead read = AcsRead::truncated;
  std::uint16_t control = 0;
};

// Walks the extended capability list of a config space image (the bytes of the sysfs file).
AcsControl find_acs_control(std::string_view config);

// "SrcValid+ ReqRedir+ CmpltRedir+ UpstreamFwd+" for the bits set; "none" for 0.
std::string acs_bit_names(std::uint16_t control);

}  // namespace fb
