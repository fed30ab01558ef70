#pragma once
// The report's charts built from a result: busbw vs size of every collective on one set of axes
// (with the ceiling, the expected value and optional reference series), scaling, the algorithm
// grid and the pair heatmap.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/result.hpp"

namespace fb {

struct BusbwChartOptions {
  const Result* reference = nullptr;  // drawn dashed, same colour per collective
  std::string name;                   // suffix of the main series ("" or "new")
  std::string reference_name = "baseline";
  std::vector<std::pair<std::string, std::uint64_t>> marked;  // (collective, bytes) to ring in red
};

// Whether the result measured an interconnect at all (more than one GPU in some collective run,
// or p2p pairs).
bool has_interconnect(const Result& r);

std::string busbw_chart(const Result& r, const BusbwChartOptions& o);
std::string scaling_chart(const Result& r);
std::string algos_chart(const Result& r);
std::string pair_heatmap(const Result& r);

}  // namespace fb
