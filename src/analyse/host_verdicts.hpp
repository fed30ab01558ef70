#pragma once
// Each host of a job judged on its own (the document's `hosts` sections): its topology, configuration
// and NICs, as a document of that host alone (ONE_GPU left out: the job's GPUs are measured across
// hosts), and the document's NODE_SLOW that names it, with its pair figures. judge_result() calls it,
// so that the doctor and `report --analyse` say the same of every host.
#include "model/result.hpp"

namespace fb {

// After the document's own findings are in `result.findings`.
void judge_host_sections(Result& result);

}  // namespace fb
