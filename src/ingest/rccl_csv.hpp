#pragma once
// rccl-tests' CSV output (-Z csv with -x/-X FILE, its Reporter class): a header naming the columns
// ("numCycle,collective,gpus,size,type,redop,inplace,time,algbw,busbw,#wrong", or with MPI
// "nodes,ranks,ranksPerNode,gpusPerRank" instead of "gpus"; later versions add "busbwfactor"),
// one row per size and variant. Columns are found by name, so each version's order is read; the
// rows become one test per collective, data type, op and GPU count. It lists no devices: the GPU
// model comes from --gpu.
#include <string>
#include <vector>

#include "ingest/paste_lines.hpp"
#include "ingest/tool_run.hpp"

namespace fb {

// Whether the first line is rccl-tests' CSV header.
bool looks_like_rccl_csv(const Paste& paste);

// The tests; rows that cannot be read are skipped and named in each test's `skipped`.
std::vector<ToolRun> read_rccl_csv(const Paste& paste);

}  // namespace fb
