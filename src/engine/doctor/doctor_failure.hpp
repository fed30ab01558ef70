#pragma once
// The doctor's verdict when it cannot finish (docs/cli.md, "Every outcome writes the verdict"): no GPU,
// no driver, no NCCL, a stage that failed, a crash or a kill. The results folder and the metrics file
// then still say the node is not fit (RUN_FAILED: CRITICAL, action drain) instead of keeping the last
// run's verdict.
#include <string>
#include <vector>

#include "model/result.hpp"

namespace fb {

// A document for a doctor that failed before its own header: the command, the host's name and what
// can be read without the GPU runtime or NCCL (sysfs and NVML's topology, the host's configuration:
// an Xid or an ECC error there may say why). Never throws for a missing source.
Result doctor_failure_header(const std::vector<std::string>& command_line);

// `doc` as a failed run: status failed, `failure` recorded, finished now, judged (each host's
// section too), so its verdict is CRITICAL with the action drain. A document that is failed or
// refused already (engine/doctor: a failed stage, the preflight's refusal) keeps its own status and
// failure, and a refused job's action stays fix_configuration.
Result failed_doctor_result(Result doc, const std::string& failure);

// What stands while the doctor runs: `begun` (its first document) failed with "began at ... and has
// not finished". Written before the first stage, so a crash, a kill or a scheduler's timeout leaves a
// failing verdict behind; the doctor replaces it when it ends.
Result unfinished_doctor_result(const Result& begun);

}  // namespace fb
