#pragma once
// What NCCL chose, read from its own log: a short pass apart from the timed sweep (logging every
// call would slow it), one operation per point in fresh workers with NCCL_DEBUG=INFO and the INIT
// and TUNING subsystems. algos, the doctor and run read their transports, channels, NVLS and
// per-size algorithm and protocol from it.
#include <string>
#include <vector>

#include "bench/plan.hpp"
#include "comm/nccl_log.hpp"
#include "core/events.hpp"
#include "engine/plans/plan_runner.hpp"
#include "model/result.hpp"

namespace fb {

// `plan` with one untimed-warm-up-free operation per point and NCCL's logging on (its log files
// under `log_dir`): what the probe runs, and what its estimate is priced from.
Plan nccl_probe_plan(const Plan& plan, const std::string& log_dir);

// Runs the probe of `plan` and returns what NCCL's log said (and, into `points` when given, each
// operation as timed). The logs go to `keep_logs` ("" : a temporary folder, removed). Its workers
// start after the previous set's exit unless `start` says beside it (plan_runner.hpp). Throws when
// the run fails (not when interrupted: the caller ends its sweep).
NcclLogSummary probe_nccl_choices(const Plan& plan, const std::string& keep_logs, bool quiet,
                                  EventSink& events, std::vector<Point>* points = nullptr,
                                  WorkerStart start = WorkerStart::after_exiting);

}  // namespace fb
