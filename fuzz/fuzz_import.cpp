// libFuzzer target: another tool's output as `report` reads it (src/ingest/import_output): nccl-tests
// and rccl-tests stdout, nccl-tests JSON, rccl-tests CSV, the PyTorch scripts' lines ("Estimated
// Bandwidth", all_reduce_bench.py's). Anything it cannot read is Error(usage); what it reads must be
// a document the reader takes back.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/error.hpp"
#include "ingest/import_output.hpp"
#include "model/result_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const auto out = fb::import_output(text, "fuzz.txt");
    if (!out) return 0;
    for (const auto& run : out->result.runs)
      for (const auto& p : run.points)
        if (!std::isfinite(p.busbw_gbps) || p.busbw_gbps < 0 || !std::isfinite(p.algbw_gbps))
          __builtin_trap();
    (void)fb::parse_result(nlohmann::json(out->result).dump());
  } catch (const fb::Error& e) {
    if (e.code() != fb::ExitCode::usage) __builtin_trap();
  }
  return 0;
}
