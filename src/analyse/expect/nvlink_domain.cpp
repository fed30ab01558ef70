#include "analyse/expect/nvlink_domain.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "analyse/expect/gpu_hardware.hpp"
#include "analyse/expect/reach.hpp"
#include "analyse/scope/gpu_names.hpp"

namespace fb {
namespace {

// NCCL's log names a network between the hosts: its "Using network" line or a NET transport.
bool log_names_network(const Result& r) {
  return std::any_of(r.runs.begin(), r.runs.end(), [](const Run& run) {
    return !run.nccl_network.empty() ||
           std::any_of(run.nccl_transports.begin(), run.nccl_transports.end(),
                       [](const std::string& t) { return t.starts_with("NET/"); });
  });
}

std::string setting(const Result& r, const Run& run, const std::string& name) {
  if (const auto it = run.forced.find(name); it != run.forced.end()) return it->second;
  const auto it = r.env.find(name);
  return it == r.env.end() ? "" : it->second;
}

}  // namespace

NvlinkDomain nvlink_domain(const Result& r, const Run& run) {
  if (inferred_hosts(r, run) < 2) return {false, "one host"};
  const auto* hw = gpu_hardware_of(gpu_name(r, run.gpus));
  if (hw == nullptr || hw->fabric_gpus <= hw->gpus_per_host) return {false, "no NVLink between hosts"};
  if (static_cast<int>(run.gpus.size()) > hw->fabric_gpus)
    return {false,
            fmt::format("{} GPUs: more than one NVLink domain of {}", run.gpus.size(), hw->fabric_gpus)};
  if (setting(r, run, "NCCL_MNNVL_ENABLE") == "0") return {false, "NCCL_MNNVL_ENABLE=0"};
  if (log_names_network(r)) return {false, "NCCL's log names a network between the hosts"};
  const bool log_read =
      std::any_of(r.runs.begin(), r.runs.end(), [](const Run& x) { return !x.nccl_transports.empty(); });
  return {true, fmt::format("{} GPUs of {} on {} hosts: one NVLink domain, as NCCL counts nodes ({})",
                            run.gpus.size(), hw->model, inferred_hosts(r, run),
                            log_read ? "NCCL's log names no network between them"
                                     : "assumed: NCCL's default there (MNNVL), its log not read")};
}

int inferred_hosts(const Result& r, const Run& run) {
  if (result_hosts(r) >= 2 || !r.host.hostname.empty() ||
      std::any_of(r.gpus.begin(), r.gpus.end(), [](const GpuInfo& g) { return !g.host.empty(); }))
    return result_hosts(r);
  const auto* hw = gpu_hardware_of(gpu_name(r, run.gpus));
  if (hw == nullptr || hw->gpus_per_host <= 0 || static_cast<int>(run.gpus.size()) <= hw->gpus_per_host)
    return 1;
  const int n = static_cast<int>(run.gpus.size());
  return (n + hw->gpus_per_host - 1) / hw->gpus_per_host;
}

int nccl_hosts(const Result& r, const Run& run) {
  return nvlink_domain(r, run).one ? 1 : inferred_hosts(r, run);
}

int nccl_hosts(const Result& r) {
  for (const auto& run : r.runs)
    if (judged_run(run)) return nccl_hosts(r, run);
  return result_hosts(r);
}

}  // namespace fb
