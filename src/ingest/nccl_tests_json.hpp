#pragma once
// nccl-tests' JSON output (-J FILE, nccl-tests 2.17.4 and later: src/util.cu writes its "version"
// 3 document): the command line, NCCL's version code, the settings and devices under "config",
// one "results" entry per size with "out_of_place"/"in_place" {time or cpu_time, alg_bw, bus_bw,
// nwrong} and with -I the per-iteration summaries and samples, the footer's out-of-bounds count
// and average bus bandwidth. NaN is written as the string "nan" there: such a figure is refused.
#include <nlohmann/json_fwd.hpp>

#include "ingest/tool_run.hpp"

namespace fb {

// Whether the document is nccl-tests' output ("results" and "config" at the top).
bool looks_like_nccl_tests_json(const nlohmann::json& j);

// The test; a usage error naming the JSON path where a member is missing or of the wrong type.
ToolRun read_nccl_tests_json(const nlohmann::json& j);

}  // namespace fb
