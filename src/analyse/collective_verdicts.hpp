#pragma once
// Collective busbw against the ring's path ceiling and against the machine's expected figures.
//   BUSBW_BELOW_CEILING   the largest size (>= 256 MiB) below what healthy rings reach of the
//                         path ceiling, less the tolerance (warning)
//   BUSBW_BELOW_EXPECTED  a size below the per-machine expectation (analyse/sku_table.cpp; warning)
//   NO_EXPECTATION        collectives with no expectation for this machine (info: said, not skipped)
#include <vector>

#include "model/result.hpp"

namespace fb {

std::vector<Finding> check_ceilings(const Result& r);
std::vector<Finding> check_expectations(const Result& r);

}  // namespace fb
