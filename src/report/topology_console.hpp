#pragma once
// `fabricbench topo` on the console: the nvidia-smi-style matrix, the per-GPU table, the
// per-pair peaks, the findings, and what could not be read.
#include <ostream>
#include <vector>

#include "model/result.hpp"
#include "model/topology.hpp"

namespace fb {

void print_topology(std::ostream& out, const Topology& t, const std::vector<Finding>& findings);

// Prints findings, one block each (shared by every command that has them).
void print_findings(std::ostream& out, const std::vector<Finding>& findings);

}  // namespace fb
