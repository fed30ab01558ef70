#pragma once
// The all_reduce time of one TP degree at one size, and where it comes from: the document's curve of
// exactly that many GPUs (measured), else, under --assume, the bound of that many GPUs handed in by
// the command (bounded: the ring ceiling of the best subset, or the network's figure across hosts),
// never a larger subset's figure; at latency-bound sizes, where another GPU count's curve at equal
// busbw is slower than the bound, that curve's time (assumed). docs/projection.md, "Communication".
#include <cstdint>
#include <map>
#include <string>

#include "model/projection.hpp"
#include "projection/allreduce_curve.hpp"

namespace fb {

// The bounds of the GPU counts without a curve of their own, by GPU count.
using CommBounds = std::map<int, CommBound>;

struct CommTime {
  AllReduceTime time;
  int curve_gpus = 0;  // the curve whose time was used (rescaled where not the TP's own); 0: the bound's
  std::string basis;   // "measured" | "bounded" | "assumed"
  double bound_gbps = 0;
  std::string source;  // in words
  [[nodiscard]] bool assumed() const { return basis != "measured"; }
};

// Usage errors that say what to measure or pass: a TP without its own curve and no --assume, or
// with --assume and nothing that bounds it (the bound's own words name the flag), a size outside
// every curve that would answer it.
CommTime allreduce_time(const std::map<int, AllReduceCurve>& curves, const CommBounds& bounds, int tp,
                        std::uint64_t bytes, bool assume);

// The time of `bytes` at busbw `gbps` on `gpus` GPUs: bytes x 2(n-1)/n / busbw, in microseconds.
double bandwidth_bound_us(std::uint64_t bytes, int gpus, double gbps);

}  // namespace fb
