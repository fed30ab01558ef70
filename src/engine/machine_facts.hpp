#pragma once
#include "cli/run_plan_builder.hpp"
#include "comm/nccl_library.hpp"

namespace fb {

// The GPUs the runtime sees and the loaded NCCL's version, for plan validation.
MachineFacts probe_machine_facts(const NcclLibrary& lib);

}  // namespace fb
