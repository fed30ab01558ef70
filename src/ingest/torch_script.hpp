#pragma once
// The output of the common hand-written PyTorch all_reduce benchmark (torchrun, one all_reduce of
// a large tensor timed over N iterations), whose lines are "World Size: 8", "Tensor Size: 1.00 GB",
// "Iterations: 100", "Total Time: 3.45 s" and "Estimated Bandwidth: 303.79 GB/s" (optionally
// "Data Type: float32"; one such block per size). Such scripts compute their "GB" and "GB/s" in
// either unit: the reported bandwidth is matched against the size and time under each reading
// (10^9 or 2^30 bytes per GB; algbw, or busbw with all_reduce's 2(n-1)/n) and the point is written
// in fabricbench's units, 10^9 bytes per GB, with the reading that matched said in `converted`.
// A bandwidth that matches no reading is refused: it cannot be told what it measured.
#include <vector>

#include "ingest/paste_lines.hpp"
#include "ingest/tool_run.hpp"

namespace fb {

// Whether the output holds the script's "Estimated Bandwidth" and "World Size" lines.
bool looks_like_torch_script(const Paste& paste);

// One test (all_reduce) with a point per block; a usage error where a block lacks a line or its
// bandwidth matches no reading of its size and time.
ToolRun read_torch_script(const Paste& paste, const std::string& file);

}  // namespace fb
