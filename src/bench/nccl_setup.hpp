#pragma once
// What NCCL's log said of its set-up, into a run of the result document.
#include <string>

#include "comm/nccl_log.hpp"
#include "model/result.hpp"

namespace fb {

// Transports, channel counts, NVLS and NICs; a fact the log lacks stays "not in NCCL's log".
void set_nccl_setup(Run& run, const NcclLogSummary& log);

// The set-up above and, on each point of a collective run that has none yet, NCCL's logged
// algorithm, protocol and channels at that size: what the expectation of what ran reads
// (analyse/expect/what_ran.hpp).
void attach_nccl_log(Run& run, const NcclLogSummary& log);

// What the log lacked of what the algos sweep shows, in one sentence ("" when nothing): its
// version line, channel counts, tuning choices, and connection lines whose transport was unreadable.
std::string nccl_log_gaps(const NcclLogSummary& log);

}  // namespace fb
