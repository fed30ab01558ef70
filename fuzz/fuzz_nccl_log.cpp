// libFuzzer target: an NCCL_DEBUG=INFO log. Any text is read (unknown lines skipped), never thrown on.
#include <cstddef>
#include <cstdint>
#include <string>

#include "comm/nccl_log.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto s = fb::parse_nccl_log(text);
  for (const auto& [op, sizes] : s.choices)
    for (const auto& [bytes, choice] : sizes)
      if (choice.channels && *choice.channels < 1) __builtin_trap();  // a count is at least one channel
  fb::merge_nccl_logs(s, fb::parse_nccl_log(text));
  return 0;
}
