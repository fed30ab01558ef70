#pragma once
// NCCL's set-up under an outside job (mpirun, torchrun, srun), where rank 0's NCCL runs in this
// process: NCCL reads NCCL_DEBUG once per process, at its first log line, so run's separate logged
// pass cannot log there. Instead rank 0 asks for NCCL's INIT and NET lines (no line per operation:
// nothing slows the timed operations) in a file of its own before its first communicator, and each
// run reads the transports, channels and NICs from it.
#include <optional>
#include <string>
#include <vector>

#include "comm/nccl_log.hpp"
#include "model/result.hpp"

namespace fb {

// Starts the log where this process is rank 0 of a job, the user set no NCCL_DEBUG, and it has not
// started already; returns whether the log is being written. Call before NCCL's first communicator.
bool start_job_init_log();

// What NCCL logged so far (its set-up; no algorithm choices), or nullopt where no log was started.
std::optional<NcclLogSummary> read_job_init_log();

// That set-up into each of `runs` (engine/nccl_setup's set_nccl_setup); false where no log was started.
bool attach_job_init_log(std::vector<Run>& runs);

}  // namespace fb
