#pragma once
// Whether a companion file given with another tool's output (`--nccl-log`) is of that run: an NCCL
// log at all, of the same library (NCCL or RCCL, as the output's GPUs and tool say), the same NCCL
// version, communicator size and hosts, as far as both tell. A companion of another run would put its
// facts in the document (a 2-host MI250X log under an 8 x MI300X output): refused in one line naming
// what disagrees, unless the user says it belongs (--force).
#include <string>

#include "comm/nccl_log.hpp"
#include "model/result.hpp"

namespace fb {

// "" where the log agrees with the output as far as both tell; else why it is not that run's log
// ("README.md is no NCCL log: ...", "its communicator has 16 ranks, the output ran 8").
// `log` is `text`'s NCCL lines parsed (parse_nccl_log of clean_paste(text).nccl_log: a launcher's tags
// removed).
std::string nccl_log_conflict(const Result& output, const NcclLogSummary& log, const std::string& text);

}  // namespace fb
