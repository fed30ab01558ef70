#pragma once
// One fact of the host as read, with where it was read (model/host_facts.hpp gathers them).
#include <string>

namespace fb {

// One value as read. `value` empty: not read, and `note` says why ("not readable without root").
// The note of a fact a captured tree (topo --sysfs-root DIR) does not hold: not the machine's to
// judge, nor a reason to run as root.
inline constexpr const char* kNotCaptured = "not in the captured tree";

struct HostFact {
  std::string value;   // as read: "1", "0x001d", "DMA-FQ", "enabled", "67108864"
  std::string source;  // the file, call or command it came from
  std::string note;
  bool known() const { return !value.empty(); }
  bool not_captured() const { return !known() && note == kNotCaptured; }
};

}  // namespace fb
