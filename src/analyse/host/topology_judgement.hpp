#pragma once
// What the topology's findings (topo/topology_checks) mean for a run, with what that check alone does not
// know (docs/verdicts.md, "Topology"):
//   TOPO_NO_P2P     between GPUs that have no peer access by design (GeForce RTX 4090/5090: the GPU
//                   table, analyse/expect/gpu_hardware.hpp) is information with the reason, not a fault:
//                   host memory is their path, and no ACS/IOMMU hint applies
//   TOPO_HOST_PATH  a run whose GPUs cross CPU sockets on a PCIe box where the same number of GPUs
//                   sits on one socket is a warning naming that placement (the machine's design is
//                   information; the job's placement is not)
#include <vector>

#include "model/result.hpp"

namespace fb {

void judge_topology_findings(const Result& r, std::vector<Finding>& findings);

}  // namespace fb
