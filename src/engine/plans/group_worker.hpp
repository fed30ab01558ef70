#pragma once
// What a rank of a job does with a plan of groups (Plan::groups): its group measures every point on
// its own communicator while the other groups measure theirs, then the groups' points are gathered
// to rank 0, which reports each as run (group x runs + run).
#include <memory>

#include "bench/plan.hpp"
#include "bench/progress.hpp"
#include "comm/bootstrap.hpp"
#include "comm/nccl_collectives.hpp"

namespace fb {

// The plan one group runs: its members' GPUs, no groups. `group` indexes plan.groups.
Plan group_plan(const Plan& plan, std::size_t group);

// `job` is the whole job's bootstrap; `process` this rank. Throws Error.
void run_group_worker(const Plan& plan, int process, Bootstrap& job, ProgressSink& sink,
                      std::unique_ptr<Collectives>& collectives);

}  // namespace fb
