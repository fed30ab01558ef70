// libFuzzer target: a saved NVML readout (topo --nvml-file). Malformed: Error(usage), nothing else.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "core/error.hpp"
#include "topo/nvml_readout.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const auto r = fb::parse_nvml_readout(text);
    (void)nlohmann::json(r).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  } catch (const fb::Error& e) {
    if (e.code() != fb::ExitCode::usage) __builtin_trap();
  }
  return 0;
}
