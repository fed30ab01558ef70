#pragma once
// Collective busbw against the ring's path ceiling and against the machine's expected figures.
//   BUSBW_BELOW_CEILING   the largest size (>= 256 MiB) below what healthy rings reach of the
//                         path ceiling, less the tolerance (warning)
//   BUSBW_BELOW_EXPECTED  a size below the per-machine expectation (analyse/sku_table.cpp; across hosts
//                         the hosts' NICs, analyse/network/cross_host_expectation.hpp; warning)
//   NO_EXPECTATION        collectives with no expectation for this machine (info: said, not skipped)
//   NVLS_OFF              NVLS could not run where the table has NVLS rows: judged against the ring row
//                         (info; analyse/expectation_verdicts.cpp)
//   BUSBW_ABOVE_NIC_SUM   an algorithm across hosts with no figure of its own (NVLSTree, Tree, CollNet)
//                         above the ring's NIC bound: labelled, not judged (info)
#include <cstdint>
#include <string>
#include <vector>

#include "model/result.hpp"

namespace fb {

// Ring sizes from this many bytes are held against the path ceiling (BUSBW_BELOW_CEILING).
inline constexpr std::uint64_t kCeilingJudgedBytes = 256ULL << 20;

// What healthy rings reach of the SM path ceiling on a GPU fabric, per collective, at 256 MiB and
// from 1 GiB (docs/verdicts.md, "Thresholds").
double fabric_reach(const std::string& collective, std::uint64_t bytes);

std::vector<Finding> check_ceilings(const Result& r);
std::vector<Finding> check_expectations(const Result& r);

// A point's relative 95% interval (0 when unbounded) and whether a run is judged (a collective on 2
// or more GPUs).
double interval(const Point& p);
bool judged_run(const Run& run);

}  // namespace fb
