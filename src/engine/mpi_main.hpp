#pragma once
// Entry point when mpirun/srun started fabricbench: rank 0 runs the command as usual (its
// worker is a thread that drives its GPU); every other rank serves it, running each plan
// rank 0 broadcasts on its own GPU until rank 0 says it is done.
#include <functional>
#include <string>

namespace fb {

// `front_end` runs the command line on rank 0 and returns its exit code.
int mpi_main(const std::function<int()>& front_end);

// The commands that can run under mpirun (the others are refused with a usage error there).
bool runs_under_mpi(const std::string& command);

}  // namespace fb
