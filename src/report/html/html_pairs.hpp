#pragma once
// Every figure measured between two GPUs that the heatmap does not show (SM copies, writes,
// bidirectional copies, latency; copy-engine reads too where the heatmap has no room for numbers),
// one row per test and pair, with the path ceiling it is held against.
#include <string>

#include "model/result.hpp"

namespace fb {

std::string pair_figures_table(const Result& r);

}  // namespace fb
