#pragma once
// The output of ml-engineering's all_reduce_bench.py (github.com/stas00/ml-engineering, the PyTorch
// all_reduce benchmark most often run under torchrun), one block per run:
//   The average bandwidth of all_reduce with a 4.0GB payload (5 trials, 16 ranks):
//    algbw: 176.590 GBps (1412.7 Gbps)
//    busbw: 331.106 GBps (2648.8 Gbps)
// Its payload is M x N x 4 bytes over 1e9 and its GBps bytes per second over 1e9: already
// fabricbench's units. It prints no time: the time of one all_reduce is the payload over algbw,
// said so in `converted`.
#include <string>
#include <vector>

#include "ingest/paste_lines.hpp"
#include "ingest/tool_run.hpp"

namespace fb {

// Whether the output holds the script's "The average bandwidth of all_reduce with a" line.
bool looks_like_torch_bench(const Paste& paste);

// One test (all_reduce) per block: blocks may differ in their rank count. A block without a
// readable algbw line is named in the test's `skipped` and has no point.
std::vector<ToolRun> read_torch_bench(const Paste& paste);

}  // namespace fb
