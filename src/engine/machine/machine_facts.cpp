#include "engine/machine/machine_facts.hpp"

#include "comm/job_session.hpp"
#include "gpu/runtime.hpp"

namespace fb {

MachineFacts probe_machine_facts(const NcclLibrary& lib) {
  MachineFacts facts;
  const int n = gpu::device_count();
  for (int i = 0; i < n; ++i) {
    const auto p = gpu::device_props(i);
    facts.devices.push_back({p.compute_capability, p.memory_bytes, p.name, p.arch});
  }
  facts.nccl_version = lib.version_code();
  if (const JobSession* job = JobSession::current()) {
    facts.job_local_ranks = job->local_ranks();
    facts.job_command = job->launcher_command();
  }
  return facts;
}

OpenedMachine open_machine(const std::string& nccl_lib) {
  gpu::device_count();
  OpenedMachine machine{NcclLibrary::load(nccl_lib), {}};
  machine.facts = probe_machine_facts(*machine.lib);
  return machine;
}

}  // namespace fb
