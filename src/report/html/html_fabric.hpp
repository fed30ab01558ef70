#pragma once
// The GPU fabric part of the machine drawing (report/html/html_topology.cpp): a bar for the fabric
// (NVSwitch, direct NVLink, xGMI) and each GPU's edge to it, labelled with its link count and
// its lowest measured copy bandwidth against the pair's ceiling.
#include <string>
#include <vector>

#include "model/result.hpp"

namespace fb {

// The drawing's grid, shared by the fabric and the PCIe tree.
inline constexpr double kSlot = 136, kBoxW = 124, kMargin = 20, kGpuTop = 120;

// `order`: the GPUs left to right; GPU i is centred at kMargin + kSlot * (i + 0.5).
std::string fabric_svg(const Result& r, const std::vector<const TopoGpu*>& order, double width);

}  // namespace fb
