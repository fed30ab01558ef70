#pragma once
// AMD GPU pairs from what ROCm SMI (library or text) reports: which SMI index each GPU has, the
// xGMI link count and wire of a pair, and what was read versus inferred (docs/model.md, "The
// xGMI model").
#include <string>
#include <vector>

#include "model/topology.hpp"
#include "topo/smi_text.hpp"

namespace fb {

// The SMI index of each GPU of `gpus` (-1 for none): by bus id when the library gave them, else
// in bus order (rocm-smi numbers the AMD GPUs that way) when the text lists as many GPUs as
// sysfs has AMD GPUs; otherwise none, and `unmatched` says why.
std::vector<int> amd_smi_indices(const std::vector<TopoGpu>& gpus, const RocmSmiTopo& smi,
                                 std::vector<std::string>& unmatched);

// Fills a GPU's name, NUMA node and PCIe link from the library where sysfs had none.
void attach_amd_devices(const RocmSmiTopo& smi, const std::vector<int>& index, std::vector<TopoGpu>& gpus);

// Classifies the pair when SMI says XGMI: connection, links, wire, ceilings and a limit text
// saying what was read and what inferred. Returns false (pair untouched) for other link types.
bool classify_xgmi(const TopoGpu& a, const TopoGpu& b, const RocmSmiTopo& smi, int ai, int bi, TopoPair& p);

// Peer access as the library reports it (both directions); false when it did not say.
bool attach_smi_p2p(const RocmSmiTopo& smi, int ai, int bi, TopoPair& p);

}  // namespace fb
