#pragma once
// Collective busbw against the hardware's bound and ceiling and against the machine's expected figures.
//   BUSBW_BELOW_CEILING   a size where bandwidth dominates below what a healthy run reaches of the
//                         ring's path ceiling there, less the tolerance (warning;
//                         analyse/expect/hardware_bound.hpp: the topology's fabric, else the GPU table's)
//   BUSBW_ABOVE_CEILING   a size above the physical ceiling of the algorithm that ran, by more than the
//                         tools' fidelity bar (warning: the GPU's identity or the ceiling is wrong)
//   BUSBW_BELOW_EXPECTED  a size below the per-machine expectation (analyse/expect/sku_table.cpp; across
//   hosts
//                         the hosts' NICs, analyse/expect/cross_host_expectation.hpp; warning)
//   NO_EXPECTATION        collectives with no expectation for this machine (info: said, not skipped)
//   NVLS_OFF              NVLS could not run where the table has NVLS rows: judged against the ring row
//                         (info; analyse/run/expectation_verdicts.cpp)
//   BUSBW_ABOVE_NIC_SUM   an algorithm across hosts with no figure of its own (NVLSTree, Tree, CollNet)
//                         above the ring's NIC bound: labelled, not judged (info)
#include <vector>

#include "analyse/expect/reach.hpp"
#include "model/result.hpp"

namespace fb {

std::vector<Finding> check_ceilings(const Result& r);
std::vector<Finding> check_expectations(const Result& r);

}  // namespace fb
