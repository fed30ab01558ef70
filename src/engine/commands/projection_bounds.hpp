#pragma once
// The bound of an all_reduce over `k` GPUs, for each TP degree a document holds no curve of
// (docs/projection.md, "Communication"), handed to the projection as data: within one host the ring
// ceiling of the best k-GPU subset of its topology (analyse/ceilings), or, where no topology was read,
// of the product's fully connected xGMI platform (topo/link_rates); beyond one host the network: an
// all_reduce across hosts the document measured, else the figure its hosts' NICs give
// (analyse/network/cross_host_expectation), else --net-busbw; or, where nothing bounds it, why, with
// the flag or measurement that would. Never a larger subset's figure.
#include <map>
#include <vector>

#include "model/projection.hpp"
#include "model/result.hpp"

namespace fb {

// One bound per degree of `degrees` (2 or more) that has no all_reduce curve of its own in `r`.
// `net_busbw_gbps` > 0: --net-busbw, taken for degrees beyond one host.
std::map<int, CommBound> projection_bounds(const Result& r, const std::vector<int>& degrees,
                                           double net_busbw_gbps);

}  // namespace fb
