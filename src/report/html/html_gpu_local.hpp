#pragma once
// Each GPU on its own, for the HTML report: what its host link carries each way (copy engine and
// SM copy kernel), how fast it copies within its memory and its host latency, each against its
// expected value and the link's ceiling; its health as read before measuring (PCIe link, clock
// limits and event reasons, ECC, row remapping, Xid); and, on one GPU, how to measure an
// interconnect.
#include <string>

#include "model/result.hpp"

namespace fb {

// "" when the document holds no figure of a GPU on its own.
std::string gpu_local_html(const Result& r);

}  // namespace fb
