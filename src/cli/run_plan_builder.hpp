#pragma once
// Validates `fabricbench run` options against what the machine offers and builds the Plan.
// Every usage error is raised here, before any GPU work.
#include <cstdint>
#include <string>
#include <vector>

#include "bench/plan.hpp"
#include "cli/run_options.hpp"

namespace fb {

struct DeviceSummary {
  int compute_capability = 0;  // major*10 + minor
  std::uint64_t memory_bytes = 0;
  std::string name;
};

struct MachineFacts {
  std::vector<DeviceSummary> devices;  // runtime ordinals 0..n-1
  int nccl_version = 0;                // NCCL_VERSION_CODE of the loaded library
  // Launched by mpirun/srun: each MPI rank's index among the ranks of its host (empty otherwise).
  std::vector<int> mpi_local_ranks;
};

// Size list from -b/-e/-f/-i or --sizes (nccl-tests' rules).
std::vector<std::uint64_t> build_sizes(const RunOptions& o);

// "" -> all; "4" -> first 4; "0,2" / "1-3" -> those ordinals. Checked against `available`.
std::vector<int> parse_gpu_selection(const std::string& text, int available);

// Under MPI: rank r drives the local_ranks[r]-th of the GPUs selected on its host.
std::vector<int> gpus_of_mpi_ranks(const RunOptions& o, const std::vector<int>& selected,
                                   const std::vector<int>& local_ranks);

// The checks that need no machine facts (names, sizes, sampling); build_run_plan repeats them.
void check_run_options(const RunOptions& o);

Plan build_run_plan(const RunOptions& o, const MachineFacts& machine);

}  // namespace fb
