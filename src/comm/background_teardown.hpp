#pragma once
// Tearing NCCL's communicators down takes about half a second, as long as a small point's whole
// measurement. A worker process leaves it to its exit (app/main.cpp); an in-process worker of the
// threads launcher leaves it here, not yet begun, and says "done" at once. It begins, on a thread of
// its own, only when something needs what it holds: the next plan or communicator waits for it (its
// GPU memory, as for worker processes still exiting: launch/exiting_workers.hpp). A command that ends
// first leaves it to the process's exit, as it leaves its worker processes: a process that exits
// while a teardown is under way waits for the driver beneath it, one that never began one does not.
#include <chrono>
#include <functional>

namespace fb {

// From now on, teardowns started on the calling thread may run in the background (the threads
// launcher's worker thread). Under an outside job (mpirun, torchrun, srun) they never do: each rank
// tears down in turn, as before.
void allow_background_teardown_on_this_thread();

// Keeps `teardown` for later where this thread allows it, else runs it here and now.
void tear_down(std::function<void()> teardown);

// Begins every teardown kept for later, each on a thread of its own, and waits until all have
// finished or `grace` has passed; true when none is left. Also runs at exit (before the GPU runtime's
// own teardown) once one has begun, for a process that ends through exit().
bool wait_for_background_teardowns(std::chrono::milliseconds grace = std::chrono::seconds(10));

}  // namespace fb
