#include "engine/machine/result_header.hpp"

#include <fmt/format.h>

#include "core/environment.hpp"
#include "core/version.hpp"
#include "gpu/runtime.hpp"

namespace fb {

Result make_result_header(const std::vector<std::string>& command_line, const NcclLibrary* lib,
                          bool with_runtime) {
  Result r;
  r.tool = {kToolVersion, kToolGit};
  r.command = command_line;
  r.started = now_iso8601();
  r.host.hostname = host_name();
  if (with_runtime) {
    r.host.driver = gpu::driver_version();
    r.host.runtime = gpu::runtime_version();
  }
  if (lib) r.host.comm = {lib->name(), lib->version(), lib->version_code(), lib->path()};
  r.env = capture_comm_env();
  return r;
}

void add_gpus(Result& result, const std::vector<int>& gpus) {
  for (std::size_t r = 0; r < gpus.size(); ++r) {
    const auto p = gpu::device_props(gpus[r]);
    result.gpus.push_back({gpus[r], static_cast<int>(r), p.name, p.pci_bus_id, p.memory_bytes,
                           p.compute_capability, result.host.hostname});
  }
}

void mark_interrupted(Result& result, std::string failure, EventSink& events) {
  result.status = RunStatus::failed;
  result.failure = std::move(failure);
  events.emit(
      make_event(EventKind::stopped, fmt::format("{}: the report holds what was measured", result.failure)));
}

}  // namespace fb
