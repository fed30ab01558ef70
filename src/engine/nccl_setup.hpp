#pragma once
// What NCCL's log said of its set-up, into a run of the result document.
#include "comm/nccl_log.hpp"
#include "model/result.hpp"

namespace fb {

// Transports, channel counts, NVLS and NICs; a fact the log lacks stays "not in NCCL's log".
void set_nccl_setup(Run& run, const NcclLogSummary& log);

}  // namespace fb
