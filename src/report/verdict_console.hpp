#pragma once
// The verdict contract on the console (`report --analyse`): the run's status and action, then each
// check that is not PASS with its status and evidence (docs/verdicts.md, "The verdict contract").
#include <ostream>

#include "model/verdict.hpp"

namespace fb {

void print_verdict(std::ostream& out, const Verdict& v);

}  // namespace fb
