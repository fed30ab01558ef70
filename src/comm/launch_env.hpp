#pragma once
// Which outside launcher started this process, and what its environment variables say: rank,
// size, local rank and where rank 0 listens. Pure functions of the variables (tests pass a map).
//
// `--launcher auto` (the default; also processes and threads) picks the first that applies:
//   1. torchrun / a Kubernetes PyTorchJob: RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT set
//      (torchrun inside a Slurm allocation also inherits SLURM_*, so torchrun comes first);
//   2. mpirun: OMPI_COMM_WORLD_SIZE or MV2_COMM_WORLD_SIZE, or PMI_SIZE/PMIX_RANK without
//      SLURM_PROCID (the MPI plugin);
//   3. srun: SLURM_PROCID and SLURM_NTASKS (also srun --mpi=pmix: the TCP rendezvous, no MPI);
//   4. none: fabricbench starts its own workers.
// `--launcher local` ignores every launcher variable; mpi, torchrun and slurm force one.
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace fb {

enum class JobLauncher { none, mpi, torchrun, slurm };

std::string to_string(JobLauncher launcher);

// Looks a variable up; nullopt when unset.
using EnvLookup = std::function<std::optional<std::string>(const std::string& name)>;
// The process environment.
std::optional<std::string> process_env(const std::string& name);

JobLauncher detect_job_launcher(const EnvLookup& env);

// The command line's --launcher (the first one, `--launcher X` or `--launcher=X`) applied to
// the environment: local -> none, mpi/torchrun/slurm -> that one, else detect_job_launcher.
JobLauncher choose_job_launcher(const std::vector<std::string>& args, const EnvLookup& env);

// The command line's --timeout in seconds, or `fallback` (the rendezvous waits this long).
double timeout_from_args(const std::vector<std::string>& args, double fallback);

// Where the TCP rendezvous is: rank 0 listens on `port` of every address; the others connect
// to `master_addr`.
struct TcpJobEnv {
  JobLauncher launcher = JobLauncher::none;
  int rank = 0;
  int size = 1;
  int local_rank = -1;  // -1: from the hosts (ranks of a host in rank order)
  std::string master_addr;
  int port = 0;
  std::string port_origin;  // how the port was chosen, for messages
};

// torchrun's variables. The rendezvous port is $FABRICBENCH_RENDEZVOUS_PORT, else
// MASTER_PORT + 1: torchrun's own store (TORCHELASTIC_USE_AGENT_STORE) already listens on
// MASTER_PORT. Throws Error(usage) naming a missing or malformed variable.
TcpJobEnv torchrun_env(const EnvLookup& env);

// srun's variables. Rank 0's host: MASTER_ADDR, else the first host of SLURM_STEP_NODELIST
// (or SLURM_JOB_NODELIST). Port: $FABRICBENCH_RENDEZVOUS_PORT, else MASTER_PORT + 1, else
// 20000 + (SLURM_JOB_ID * 16 + SLURM_STEP_ID) % 20000 (the same on every rank of a step, and
// different for the steps of one job). Throws Error(usage).
TcpJobEnv slurm_env(const EnvLookup& env);

}  // namespace fb
