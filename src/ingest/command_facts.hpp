#pragma once
// What a pasted command line says about the run it started: the environment it set
// (`NCCL_P2P_DISABLE=1 ./all_reduce_perf`, `mpirun -x NCCL_IB_DISABLE=1`, `export NCCL_ALGO=Ring`,
// `env NCCL_ALGO=Ring`, `srun --export=ALL,NCCL_...`, docker's `-e`) and its shape (mpirun's `-np`,
// srun's `-n`, torchrun's processes per node and hosts, nccl-tests' `-g` and `-t`). A command is a
// line that names a test binary or a launcher, or an `export` line; a prompt before it ("$ ",
// "user@host:~$ ", "[root@host dir]# ", "> ") and continuation lines ("\" at the end) are read as the
// shell would. Only the variables the result document keeps are read (NCCL_, RCCL_, CUDA_, HIP_,
// HSA_, ROCR_); what the paste does not show (a shell's own exports) stays unknown.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ingest/paste_lines.hpp"

namespace fb {

struct CommandFacts {
  std::map<std::string, std::string> env;  // as set on the pasted command lines, the last setting winning
  std::vector<std::string> sources;        // "line 3: NCCL_IB_DISABLE=1 (mpirun -x)", one per setting read
  std::vector<std::string> commands;       // "line 3" for each command line read, whether it set anything
  std::vector<std::string> unknown;  // "line 3: mpirun -x NCCL_IB_HCA passes a value the paste does not show"
  std::optional<int> processes;      // launcher processes in all (mpirun -np, srun -n, torchrun)
  std::optional<int> gpus_per_process;     // nccl-tests -g / --ngpus
  std::optional<int> threads_per_process;  // nccl-tests -t / --nthreads
  bool launcher = false;                   // an MPI, Slurm or torchrun launcher started the test
  int test_line = 0;                       // the line naming the test binary (0: none pasted)
};

CommandFacts read_command_facts(const Paste& paste);

// Whether `name` is a variable the result document keeps (NCCL_, RCCL_, CUDA_, HIP_, HSA_, ROCR_).
bool is_kept_variable(const std::string& name);

}  // namespace fb
