#pragma once
// Each host of a job judged on its own (the document's `hosts` sections): its topology, configuration
// and NICs, as a document of that host alone (ONE_GPU left out: the job's GPUs are measured across
// hosts), and the document's NODE_SLOW that names it, with its pair figures. judge_result() calls it,
// so that the doctor and `report --analyse` say the same of every host. A section that holds no host
// facts (host.config absent) but a verdict keeps what it says: there is nothing to judge it by.
#include "model/result.hpp"

namespace fb {

// After the document's own findings are in `result.findings`.
void judge_host_sections(Result& result);

// The cluster's verdict holds each host's (after judge_host_sections): a check "hosts" whose status
// and action are the worst section's, its evidence each host at that status with its codes
// ("1 of 4 hosts at CRITICAL: node-d (HOST_XID)"), so that a host's own error is the cluster's too.
void fold_host_verdicts(Result& result);

}  // namespace fb
