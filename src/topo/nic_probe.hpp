#pragma once
// Reads the host's network ports (model/nic_facts.hpp) under a root directory ("/" on a live
// machine, a fixture folder in tests): InfiniBand/RoCE ports from /sys/class/infiniband, Ethernet
// interfaces from /sys/class/net, each with the PCI device it sits on and its PCIe path class to
// every GPU; and whether GPUDirect RDMA can work (topo/gdr_probe.hpp).
#include <filesystem>
#include <string>
#include <vector>

#include "model/nic_facts.hpp"
#include "model/topology.hpp"

namespace fb {

NetworkFacts read_network(const std::filesystem::path& root, const std::vector<TopoGpu>& gpus);

// "ACTIVE" of "4: ACTIVE", "LinkUp" of "5: LinkUp" (the IB port attributes' form); the text as
// given when it has no number.
std::string ib_state_word(const std::string& line);

}  // namespace fb
