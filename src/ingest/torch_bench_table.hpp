#pragma once
// ml-engineering's all_reduce_bench.py since 2025 and its successor torch-dist-bench.py
// (github.com/stas00/ml-engineering, network/benchmarks/): a Markdown table of payload, busbw and
// algbw, one row per payload, after the line that names the collective and the ranks:
//   The average bandwidth of all_reduce over 32 ranks (5 warmups / 20 trials, up to 10 queued calls per
//   trial): | payload |    busbw   |    algbw   | | ------: | ---------: | ---------: | |   32KiB | 0.65GBps
//   |   0.33GBps |
// torch-dist-bench.py adds latency columns ("latency median", "p99", "mean", "calls") and rows of
// latency only (empty bandwidth cells, below its --min-busbw-payload): those rows are left out, said
// once. Payloads are binary ("32KiB"; the 2025 script's "32KB" is 2^15 too), GBps is 10^9 bytes per
// second. The "Environment:" lines give NCCL's version ("nccl=(2, 26, 2)") and the GPU
// ("_CudaDeviceProperties(name='NVIDIA H100 80GB HBM3', ...)"); a table pasted without its opening
// line is all_reduce_bench.py's all_reduce, its ranks from the pasted command (torchrun).
#include <vector>

#include "ingest/paste_lines.hpp"
#include "ingest/tool_run.hpp"

namespace fb {

// Whether the output holds a "| payload | busbw | algbw |" heading.
bool looks_like_torch_bench_table(const Paste& paste);

// One test per table.
std::vector<ToolRun> read_torch_bench_table(const Paste& paste);

}  // namespace fb
