#pragma once
// p2p figures against their ceilings, and the outlier rule (pairs or host links slower than
// their peers of the same class).
#include <string>
#include <vector>

#include "model/result.hpp"
#include "model/topology.hpp"

namespace fb {

// Sets wire_gbps and ceiling_gbps from the topology: a pair's one-direction peak (twice that
// for bidirectional tests), the copy-engine or SM ceiling by test; host tests the GPU's PCIe link.
void attach_p2p_ceilings(std::vector<P2pMeasurement>& ms, const Topology& t);

// measured / wire peak; 0 when either is unknown (latency has none).
double efficiency(const P2pMeasurement& m);

// Connection class of a measurement: the pair's ("NV18", "PIX", ...), "host" for host tests,
// "memory" for copies within one GPU.
std::string connection_class(const P2pMeasurement& m, const Topology& t);

// Where a figure was measured, for findings: "GPU0 -> GPU1", "host -> GPU0", "GPU0 memory".
std::string p2p_where(const P2pMeasurement& m);

// P2P_SLOW_PAIR / P2P_SLOW_HOST_LINK / P2P_SLOW_MEMORY (warning): a bandwidth below (1 - margin) x
// the median of the same test over its class (at least two members); P2P_WRONG_DATA (error): a copy that
// delivered wrong words; P2P_STAGED (info): pairs measured through host memory.
std::vector<Finding> check_p2p(const std::vector<P2pMeasurement>& ms, const Topology& t, double margin);

}  // namespace fb
