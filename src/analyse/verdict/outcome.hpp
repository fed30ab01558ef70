#pragma once
// A judged document's headline: one sentence, the same in every view (the banner, summary.md, `report`'s
// console, the JSON's verdict.headline), made from the verdict itself: its status decides the words'
// first word, so the headline never says what the verdict does not (docs/verdicts.md, "The headline").
#include <string>

#include "model/result.hpp"

namespace fb {

struct Outcome {
  // "failed", "refused", "running" (the run's status), else the verdict's: "errors" (CRITICAL),
  // "warnings" (WARNING), "incomplete" (UNKNOWN: nothing wrong in what could be judged, not all of it
  // could), "healthy" (PASS or INFO with a figure held against an expectation or a bound),
  // "unmeasured" (PASS or INFO with none).
  std::string key;
  std::string words;  // the headline
};

// The headline of a judged document (r.verdict set by judge()); "Healthy" only where every check
// passed and at least one figure was held against an expectation or a bound; otherwise it says what
// could not be judged and which flag or file would let it.
Outcome headline_outcome(const Result& r);

// Whether `key` is the one the verdict's status gives (the failed/refused/running statuses aside).
bool outcome_agrees(const std::string& key, CheckStatus status);

}  // namespace fb
