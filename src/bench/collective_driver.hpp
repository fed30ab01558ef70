#pragma once
// The one generic driver for every collective: for each run of the plan and each point,
// verify (with -c), warm up, time batches until the sampler is satisfied, and report.
#include <functional>

#include "bench/plan.hpp"
#include "bench/progress.hpp"
#include "comm/bootstrap.hpp"
#include "comm/collectives.hpp"

namespace fb {

// Runs every point of `plan` on this process's GPUs. `collectives` holds one communicator
// per entry of `local.devices`. `ready`, where given, is called once the buffers are ready and
// before the first point (the groups of a round start measuring together). Throws Error on any failure.
void run_collective_plan(const Plan& plan, const LocalAssignment& local, Collectives& collectives,
                         Bootstrap& bootstrap, ProgressSink& sink, const std::function<void()>& ready = {});

// Per-GPU memory the plan needs beyond NCCL's own, checked against free memory before anything
// is allocated. Throws Error naming the GPU, the need and what is free: usage when the GPU has
// not that much in all, environment when it is taken by others.
void check_free_memory(const Plan& plan, const LocalAssignment& local);

}  // namespace fb
