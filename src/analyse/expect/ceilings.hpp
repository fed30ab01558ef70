#pragma once
// The path ceilings verdicts hold figures against (docs/model.md). The topology carries measured
// ceilings where we have them (NVLink4); elsewhere the share of the wire comes from the table in
// ceilings.cpp (PCIe from our host-link measurements, xGMI from AMD's published figures), and the
// source says which.
#include <string>
#include <vector>

#include "model/result.hpp"
#include "model/topology.hpp"

namespace fb {

struct PathCeiling {
  double gbps = 0;     // one direction; 0: unknown
  std::string source;  // where the share of the wire comes from
  [[nodiscard]] bool known() const { return gbps > 0; }
};

// What SM-issued traffic (NCCL's kernels) or copy engines reach on a pair's path.
PathCeiling pair_sm_ceiling(const TopoPair& p);
PathCeiling pair_ce_ceiling(const TopoPair& p);

// A GPU's host link for copy-engine traffic (or, with `sm`, an SM copy kernel's loads and stores):
// as trained now, or at its maximum width and speed.
PathCeiling host_ce_ceiling(const TopoGpu& g, bool at_max, bool sm = false);

// What SM-issued traffic reaches on a PCIe link of `gen` and `width` (0 when unknown), with its source:
// a ring over PCIe, and staging through host memory (each GPU's link carries the data out and in).
PathCeiling pcie_sm_ceiling(int gen, int width);

// The ring over `gpus`: its weakest pair's SM ceiling (unknown when any pair's is).
PathCeiling ring_ceiling(const Topology& t, const std::vector<int>& gpus);

// Whether every pair of the ring over `gpus` has a GPU fabric link (NVLink, xGMI).
bool ring_on_fabric(const Topology& t, const std::vector<int>& gpus);

// A run's ring over the document's topology. Across hosts it is unknown and not on a fabric: the
// topology is one host's, and a ring between hosts crosses the NICs, never that host's NVLink.
PathCeiling run_ring_ceiling(const Result& r, const Run& run);
bool run_on_fabric(const Result& r, const Run& run);

}  // namespace fb
