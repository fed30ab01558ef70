#pragma once
// What the machine offers, as far as a plan depends on it: the engine's input beside a request.
#include <cstdint>
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
  // Launched by mpirun/srun: each MPI rank's index among the ranks of its host (empty otherwise).
  std::vector<int> mpi_local_ranks;
};

// The GPUs the runtime sees and the loaded NCCL's version, for plan validation.
MachineFacts probe_machine_facts(const NcclLibrary& lib);

}  // namespace fb
