#pragma once
// The entry points of libfabricbench_mpi.so, the plugin that carries MPI. fabricbench loads
// it with dlopen only when mpirun/srun started it, so the binary itself never needs an MPI
// library; the plugin is built wherever CMake finds MPI's headers (Debian: libopenmpi-dev).
#include "comm/bootstrap.hpp"

// Bumped whenever these signatures change; the loader refuses a plugin of another version.
#define FABRICBENCH_MPI_PLUGIN_VERSION 1

extern "C" {
int fabricbench_mpi_plugin_version();
// MPI_Init_thread; returns the world's bootstrap (allgather over MPI_COMM_WORLD), or null
// with a reason in `why` (at least 256 bytes).
fb::Bootstrap* fabricbench_mpi_start(char* why);
// Ends every rank of the job with `code` (MPI_Abort): used when a rank fails mid-run, so that
// no other rank waits forever in a collective.
void fabricbench_mpi_abort(int code);
void fabricbench_mpi_finish();
}
