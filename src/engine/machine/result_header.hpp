#pragma once
// The part of a result document every command fills the same way: tool, command line,
// host, runtime and library versions, environment.
#include <string>
#include <vector>

#include "comm/nccl_library.hpp"
#include "core/events.hpp"
#include "model/result.hpp"

namespace fb {

// `lib` may be null (commands that do not use NCCL); `with_runtime` false where no GPU runtime
// may be asked (topo works without a driver).
Result make_result_header(const std::vector<std::string>& command_line, const NcclLibrary* lib,
                          bool with_runtime = true);

// result.gpus for the devices a command uses, rank i on gpus[i].
void add_gpus(Result& result, const std::vector<int>& gpus);

// A command stopped by Ctrl-C (core/interrupt.hpp): status failed with `failure`, said to
// `events` with where the measurements are.
void mark_interrupted(Result& result, std::string failure, EventSink& events);

}  // namespace fb
