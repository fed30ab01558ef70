#pragma once
// How many ranks a collective test ran, and on which GPUs, from everything the output tells: the
// "# Rank" lines that were pasted, the header's nThread x nGpus (x the processes: rccl-tests' nRanks,
// the launcher's -np on the pasted command, or one process where the test was started by hand or
// every listed rank has the same pid) and, without a header, the pasted command's -g and -t. The
// largest wins: a paste whose rank lines were cut still counts what its header ran, and busbw is
// recomputed with that count. Ranks not listed are named, and take the listed ranks' GPU and host
// only where that cannot be otherwise (one model listed; one process, so one host).
#include <string>
#include <vector>

#include "ingest/command_facts.hpp"
#include "ingest/tool_run.hpp"

namespace fb {

struct RankCount {
  int ranks = 0;     // 0: the output does not tell
  std::string note;  // how it was counted, where not from complete rank lines ("" otherwise)
};

RankCount count_ranks(const ToolRun& run, const CommandFacts& command);

// One device per rank 0..ranks-1: the listed ones, and for the others what can be known of them
// (`name` when the output names none), each such rank said in `notes`.
std::vector<ToolDevice> devices_of_ranks(const ToolRun& run, int ranks, const std::string& name,
                                         std::vector<std::string>& notes);

}  // namespace fb
