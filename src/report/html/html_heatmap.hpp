#pragma once
// The GPU pair matrix as an SVG heatmap: a cell per ordered pair with its value, a colour scale,
// and a summary table instead of the matrix beyond kHeatmapMaxGpus GPUs (the page stays small
// whatever the document holds).
#include <cstddef>
#include <string>
#include <vector>

namespace fb {

inline constexpr std::size_t kHeatmapMaxGpus = 64;

struct PairValue {
  int src = 0;
  int dst = 0;
  double value = 0;
};

// Kept sparse: a matrix is only built when it is drawn.
struct PairMatrix {
  std::string id;  // data-chart attribute
  std::string title;
  std::string unit;
  std::vector<int> gpus;          // row/column GPU ids, ascending
  std::vector<PairValue> values;  // measured pairs
  // What a pair should reach (its expectation, else its ceiling): the colour scale spans from 80% of
  // it (or the lowest value) to it (or the highest), so that 368 and 394 GB/s read apart. 0: none.
  double reference = 0;
  std::string reference_label;  // what the reference is, in a word or two: "expected", "CE ceiling"
};

std::string heatmap_html(const PairMatrix& m);

}  // namespace fb
