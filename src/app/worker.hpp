#pragma once

namespace fb {

// Body of a worker (a child process, or a thread with --launcher threads): receives its plan
// from the launcher over `fd`, initialises NCCL on its GPUs, runs the benchmark, reports.
// Returns the process exit code.
int worker_main(int fd);

}  // namespace fb
