#pragma once
#include <memory>

#include "bench/plan.hpp"
#include "bench/progress.hpp"
#include "comm/bootstrap.hpp"
#include "comm/nccl_collectives.hpp"

namespace fb {

// Body of a worker (a child process, or in a job rank 0's thread): receives its plan
// from the launcher over `fd`, initialises NCCL on its GPUs, runs the benchmark, reports.
// Returns the process exit code.
int worker_main(int fd);

// NCCL for `local`'s ranks of `plan`: the unique id made on the bootstrap's rank 0 and shared through
// it, then every rank waits for the others' communicators. Throws Error.
std::unique_ptr<Collectives> connect_nccl(const Plan& plan, const LocalAssignment& local,
                                          Bootstrap& bootstrap);

// What every worker does with its plan, whichever launcher started it: binds CPUs, checks
// memory, initialises NCCL for its ranks, runs every point. `collectives` is the caller's so
// that on an error it can be leaked rather than torn down (a peer may be gone). Throws Error.
void run_worker(const Plan& plan, int process, Bootstrap& bootstrap, ProgressSink& sink,
                std::unique_ptr<Collectives>& collectives);

}  // namespace fb
