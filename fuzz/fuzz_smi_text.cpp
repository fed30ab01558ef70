// libFuzzer target: `rocm-smi --showtopo` and `nvidia-smi topo -m` text. Malformed: Error(usage).
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.hpp"
#include "topo/smi_text.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    (void)fb::parse_rocm_smi_topo(text);
  } catch (const fb::Error& e) {
    if (e.code() != fb::ExitCode::usage) __builtin_trap();
  }
  try {
    (void)fb::parse_nvidia_smi_topo(text);
  } catch (const fb::Error& e) {
    if (e.code() != fb::ExitCode::usage) __builtin_trap();
  }
  return 0;
}
