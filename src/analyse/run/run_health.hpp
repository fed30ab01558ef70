#pragma once
// Whether the run itself can be trusted: it finished, kept its GPUs, delivered exact data, and
// its figures are known to a stated precision (docs/verdicts.md).
//   RUN_FAILED        the run or one of its runs failed (error)
//   RUN_REFUSED       a job stopped at its preflight: its hosts disagree on what NCCL needs alike (info:
//                     the HOST_MISMATCH_* errors are the fault, and their action is to fix the job)
//   RUN_INCOMPLETE    the document is from a run that did not finish, or a run has no points (warning)
//   GPU_LOST          a GPU the run started with is missing from the topology or a run (error)
//   DATA_WRONG        a verified point with wrong elements (error)
//   RESULT_NOISY      a point's median time known only to worse than +-5% (warning)
//   RESULT_UNBOUNDED  points whose interval could not be bounded (too few samples; info)
//   RESULT_JITTER     p99 or max far above the median (warning from 16 MiB, info below)
#include <vector>

#include "model/result.hpp"

namespace fb {

std::vector<Finding> check_run_status(const Result& r);
std::vector<Finding> check_data_and_noise(const Result& r);

}  // namespace fb
