#pragma once
// What the machine offers, as far as a plan depends on it: the engine's input beside a request.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "comm/nccl_library.hpp"

namespace fb {

struct DeviceSummary {
  int compute_capability = 0;  // major*10 + minor
  std::uint64_t memory_bytes = 0;
  std::string name;
  std::string arch;  // "sm_90", "gfx942" (gpu/vendor.hpp): what AMD's type support follows
};

struct MachineFacts {
  std::vector<DeviceSummary> devices;  // runtime ordinals 0..n-1
  int nccl_version = 0;                // NCCL_VERSION_CODE of the loaded library
  // A rank of an outside job (mpirun, torchrun, srun): each rank's index among the ranks of its
  // host (empty otherwise), and what the user typed to start the job, for messages.
  std::vector<int> job_local_ranks;
  std::string job_command;
};

// The GPUs the runtime sees, the loaded NCCL's version and, in an outside job, its ranks, for
// plan validation.
MachineFacts probe_machine_facts(const NcclLibrary& lib);

// Every measuring command's first step: the GPU runtime is asked first (no GPU is an environment
// error before NCCL is loaded), then NCCL/RCCL is loaded from `nccl_lib` ("": the default search).
struct OpenedMachine {
  std::shared_ptr<const NcclLibrary> lib;
  MachineFacts facts;
};
OpenedMachine open_machine(const std::string& nccl_lib);

}  // namespace fb
