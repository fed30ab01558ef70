#pragma once
// The part of a result document every command fills the same way: tool, command line,
// host, runtime and library versions, environment.
#include <string>
#include <vector>

#include "comm/nccl_library.hpp"
#include "core/result.hpp"

namespace fb {

Result make_result_header(const std::vector<std::string>& command_line, const NcclLibrary& lib);

}  // namespace fb
