#pragma once
// The host's network ports and GPUDirect RDMA facts (model/nic_facts.hpp) as `fabricbench topo`
// prints them: one line per port with its rate in Gb/s, state, NUMA node, PCI function and its
// PCIe path class to each GPU.
#include <ostream>

#include "model/nic_facts.hpp"
#include "model/topology.hpp"

namespace fb {

// `topology` names the GPUs by index where it knows them (else by bus id).
void print_network(std::ostream& out, const NetworkFacts& network, const Topology* topology);

}  // namespace fb
