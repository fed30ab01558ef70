#pragma once
// What healthy rings reach of the SM path ceiling on a GPU fabric, and which runs and points the
// rules hold against it: the measured shares every view and rule reads (docs/verdicts.md,
// "Thresholds").
#include <cstdint>
#include <string>

#include "model/result.hpp"

namespace fb {

// Ring sizes from this many bytes are held against the path ceiling (BUSBW_BELOW_CEILING).
inline constexpr std::uint64_t kCeilingJudgedBytes = 256ULL << 20;

// What healthy rings reach of the SM path ceiling on a GPU fabric, per collective, at 256 MiB and
// from 1 GiB.
double fabric_reach(const std::string& collective, std::uint64_t bytes);

// A point's relative 95% interval (0 when unbounded) and whether a run is judged (a collective on 2
// or more GPUs).
double interval(const Point& p);
bool judged_run(const Run& run);

}  // namespace fb
