#include "app/result_header.hpp"

#include "app/version.hpp"
#include "core/environment.hpp"
#include "gpu/runtime.hpp"

namespace fb {

Result make_result_header(const std::vector<std::string>& command_line, const NcclLibrary& lib) {
  Result r;
  r.tool = {kToolVersion, kToolGit};
  r.command = command_line;
  r.started = now_iso8601();
  r.host.hostname = host_name();
  r.host.driver = gpu::driver_version();
  r.host.runtime = gpu::runtime_version();
  r.host.comm = {lib.name(), lib.version(), lib.version_code(), lib.path()};
  r.env = capture_comm_env();
  return r;
}

}  // namespace fb
