#pragma once
// The pairs of hosts of a document (`nodes`, `fabricbench nodes` or the doctor's nodes stage) judged
// again from the figures it holds, as every other check is (`report --analyse` and the command that
// measured say the same): the round robin ranked as it was measured (analyse/hosts/node_ranking.hpp); a
// sampled document against the reference it recorded (its re-test is not repeated).
#include <vector>

#include "model/result.hpp"

namespace fb {

std::vector<Finding> check_nodes(const Result& r);

}  // namespace fb
