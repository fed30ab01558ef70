#pragma once
// `fabricbench p2p` on the console: a matrix per test (row = source, column = destination),
// the host links, latencies, and each pair's figure against its ceilings.
#include <ostream>

#include "model/result.hpp"

namespace fb {

void print_p2p(std::ostream& out, const Result& r);

// One CSV row per measurement, units in the header.
void write_p2p_csv(std::ostream& out, const std::vector<P2pMeasurement>& ms);

}  // namespace fb
