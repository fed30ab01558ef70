#pragma once
// Worker processes that have said "done" and are still exiting: the driver tearing down a CUDA
// context and NCCL's peer mappings takes about 0.6 s per process on an H200, as long as the
// whole measurement of a small point. The launcher does not wait for that after a plan. It
// waits before it starts the next plan's workers (so that their GPU memory is free again), and
// a command that ends leaves them to finish exiting on their own.
#include <sys/types.h>

namespace fb {

void adopt_exiting_worker(pid_t pid);

// Waits until every adopted worker has exited; a worker still there after `grace_s` is killed.
void wait_for_exiting_workers(double grace_s = 10.0);

}  // namespace fb
