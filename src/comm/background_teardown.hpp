#pragma once
// Tearing NCCL's communicators down takes about half a second, as long as a small point's whole
// measurement (issue 52). A worker process leaves it to its exit (app/main.cpp); an in-process
// worker of the threads launcher hands it to a thread of its own here and says "done" at once, so
// that the command writes its results meanwhile. The launcher waits for it before the next plan
// starts (its GPU memory, as for worker processes still exiting: launch/exiting_workers.hpp), and a
// command that ends leaves it to the process's exit, as it leaves its worker processes.
#include <chrono>
#include <functional>

namespace fb {

// From now on, teardowns started on the calling thread may run in the background (the threads
// launcher's worker thread). Under an outside job (mpirun, torchrun, srun) they never do: each rank
// tears down in turn, as before.
void allow_background_teardown_on_this_thread();

// Runs `teardown` on a thread of its own where this thread allows it, else here and now.
void tear_down(std::function<void()> teardown);

// Waits until every teardown handed over has finished, or `grace` has passed; true when none is left.
// Also runs at exit (before the GPU runtime's own teardown), for a process that ends through exit().
bool wait_for_background_teardowns(std::chrono::milliseconds grace = std::chrono::seconds(10));

}  // namespace fb
