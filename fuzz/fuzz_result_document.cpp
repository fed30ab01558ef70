// libFuzzer target: a result document as report and compare read it. A malformed one must be
// Error(usage); a loaded one must write back as JSON.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "core/error.hpp"
#include "model/result_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const fb::Result r = fb::parse_result(text);
    (void)nlohmann::json(r).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  } catch (const fb::Error& e) {
    if (e.code() != fb::ExitCode::usage) __builtin_trap();
  }
  return 0;
}
