#pragma once
// `fabricbench nodes` on the console: every pair with its figure and share of the reference, the
// reference and threshold, the named hosts and the exclude line, the findings.
#include <ostream>

#include "model/result.hpp"

namespace fb {

void print_nodes(std::ostream& out, const Result& result);

}  // namespace fb
