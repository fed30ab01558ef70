#pragma once
// The machine drawn as SVG: the GPU fabric (NVSwitch, NVLink or xGMI) above the GPUs, each GPU's
// edge labelled with its link count and its measured vs expected copy bandwidth, and the PCIe
// tree beneath (switches, root complexes, NUMA nodes). Beyond kHeatmapMaxGpus GPUs, a sentence.
#include <string>

#include "model/result.hpp"

namespace fb {

std::string topology_svg(const Result& r);

}  // namespace fb
