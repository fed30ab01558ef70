#pragma once
// A judged document's outcome in one line, the same in every view (the banner, summary.md, `report`'s
// console): from its status, its worst finding and its figure furthest below its reference
// (analyse/verdict/headline_words.hpp).
#include <string>

#include "model/result.hpp"

namespace fb {

struct Outcome {
  std::string key;    // "failed", "refused", "running", "errors", "warnings" or "healthy"
  std::string words;  // the banner's headline
};

// A figure below its expectation is never "healthy"; the words follow the worst finding and how far
// the weakest figure is from its expectation (analyse/expect/expected_figure.hpp).
Outcome headline_outcome(const Result& r);

}  // namespace fb
