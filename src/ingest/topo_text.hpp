#pragma once
// `--topo FILE`: the topology of an imported result from the vendor tool's text, recognised by its
// content: `nvidia-smi topo -m` (each pair's connection: NV# with its link count, or the PCIe path
// class; each GPU's CPU and NUMA affinity) or `rocm-smi --showtopo` (link type, hops, weight, NUMA;
// the sections a partitioned GPU does not print are named in `missing`, not refused). The NVLink
// generation and xGMI link rate come from the GPU model the result names (docs/model.md's tables);
// a pair the text cannot place stays unknown ("?"), never a guessed class.
#include <string>

#include "model/result.hpp"

namespace fb {

// A usage error naming `path` when the text is neither tool's or is malformed.
Topology topology_from_text(const std::string& text, const std::string& path, const Result& r);

}  // namespace fb
