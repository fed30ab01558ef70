#pragma once
// p2p figures against what their path can carry and what the machine should reach, so that a
// fault shared by every pair or GPU (invisible to the peers rule) is still caught.
//   P2P_BELOW_CEILING     a copy below its path ceiling (docs/model.md) beyond the tolerance (warning)
//   P2P_BELOW_EXPECTED    a copy below the per-machine expectation (analyse/expect/sku_table.cpp; warning)
//   HOST_LINK_SLOW        an h2d/d2h copy below what the GPU's PCIe link reaches at its maximum
//                         width and speed (warning); the link's state is named
// And TOPO_PCIE_SPEED_DOWN / TOPO_PCIE_WIDTH_DOWN are raised to warnings naming the measurement
// when the host copies show the slowness (a link that only idles low stays info).
#include <vector>

#include "model/result.hpp"

namespace fb {

std::vector<Finding> check_p2p_expectations(const Result& r);

// Raises the link-state findings of GPUs whose host copies are slow (see above).
void escalate_link_findings(const Result& r, std::vector<Finding>& findings);

}  // namespace fb
