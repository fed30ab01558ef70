#pragma once
// The plain answers of a phase (docs/projection.md, "The answers"): speedup and efficiency of every
// TP over TP=1, the fastest TP for latency (the shortest pass) and the cheapest that still pays (the
// smallest TP over which no larger TP listed gains its share of the ideal step), each in words with
// the rule behind it.
#include "model/projection.hpp"

namespace fb {

// Fills speedup, efficiency, fastest_tp, best_tp, stops_paying_at_tp and answers of a phase whose
// rows (ascending TP, the first TP=1) have their pass times. A step from TP a to TP b pays when
// speedup(b) / speedup(a) >= 1 + pays_share x (b/a - 1).
void judge_scaling(ProjectionPhase& phase, double pays_share);

}  // namespace fb
