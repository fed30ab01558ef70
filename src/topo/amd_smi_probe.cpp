#include "topo/amd_smi_probe.hpp"

#include <array>
#include <cstdio>
#include <memory>

#include "core/error.hpp"

namespace fb {

std::optional<RocmSmiTopo> read_rocm_smi(std::string& why) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(::popen("rocm-smi --showtopo 2>/dev/null", "r"), ::pclose);
  if (!pipe) {
    why = "rocm-smi: could not be started";
    return std::nullopt;
  }
  std::string text;
  std::array<char, 4096> buf{};
  while (const auto n = std::fread(buf.data(), 1, buf.size(), pipe.get())) text.append(buf.data(), n);
  const int status = ::pclose(pipe.release());
  if (status != 0 || text.empty()) {
    why = "rocm-smi --showtopo: not available (xGMI links not read)";
    return std::nullopt;
  }
  try {
    return parse_rocm_smi_topo(text);
  } catch (const Error& e) {
    why = e.what();
    return std::nullopt;
  }
}

}  // namespace fb
