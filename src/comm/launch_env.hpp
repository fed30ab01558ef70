#pragma once
// Which outside launcher started this process, and what its environment variables say: rank,
// size, local rank and where rank 0 listens. Pure functions of the variables (tests pass a map).
//
// One row per launcher environment (EnumNames<JobLauncher>::table, launch_env_table.cpp) says how
// it is recognised, where a rank learns who it is and how the ranks meet; adding a launcher is
// adding a row. docs/launch.md is this table in words, with the sources of every variable.
// `--launcher auto` (the default; also processes and threads) takes the first row whose own
// variables are all (or any, as the row says) set and whose further condition holds, in table
// order, then the first whose shared variables are (those other launchers set too); else, where
// some row's variables are set but no row's are complete, a usage error naming them (never a
// silent run on this host alone); else none: fabricbench starts its own workers.
// `--launcher local` ignores every launcher variable; a row's name forces that row.
// Every rank's host is its own host name (a pod's name on Kubernetes), sent to rank 0.
#include <array>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/enum_names.hpp"

namespace fb {

enum class JobLauncher { none, torchrun, pytorchjob, mpi, slurm, sbatch, indexed_job, hydra, pmix };

// Looks a variable up; nullopt when unset.
using EnvLookup = std::function<std::optional<std::string>(const std::string& name)>;
// The process environment.
std::optional<std::string> process_env(const std::string& name);

// How the ranks of a job find each other.
enum class RankWiring {
  own_workers,     // no outside launcher: fabricbench starts its workers itself
  mpi_plugin,      // MPI's own rank, size and exchanges (comm/mpi_session); --rendezvous: TCP instead
  tcp_rendezvous,  // the launcher's variables and a TCP rendezvous with rank 0 (comm/tcp_session)
  refused,         // recognised only to say why fabricbench cannot run there (sbatch without srun)
};

// fabricbench's own variables, which its job flags set (apply_job_flags) and a manifest may set.
inline constexpr const char* kRendezvousVar = "FABRICBENCH_RENDEZVOUS";        // --rendezvous HOST:PORT
inline constexpr const char* kNnodesVar = "FABRICBENCH_NNODES";                // --nnodes N
inline constexpr const char* kNprocPerNodeVar = "FABRICBENCH_NPROC_PER_NODE";  // --nproc-per-node N
inline constexpr const char* kLocalRankVar = "FABRICBENCH_LOCAL_RANK";         // set for the ranks it starts

// Variables a launcher sets: all of them, or any one, must be set to recognise it.
struct EnvSignature {
  bool all = true;
  std::array<std::string_view, 5> vars{};  // unused slots empty
};

// A list of variables of which the first one set counts (one per MPI family, or a fallback).
using VarList = std::array<std::string_view, 2>;

// Where a rank reads who it is.
struct RankVariables {
  VarList size{};  // empty: the environment holds no size (PMIx: MPI's only)
  VarList rank{};
  VarList local_rank{};  // optional; unset: ranks of a host in rank order
  VarList local_size{};  // optional: bounds local_rank
  // Set where rank and size number nodes (pods), not processes: fabricbench starts the node's
  // ranks itself, --nproc-per-node of them (else `procs_per_node`'s number where it is one, else 1).
  bool per_node = false;
  std::string_view procs_per_node;  // the launcher's own count of processes per node (size counts them)
};

struct PortChoice {
  int port = 0;
  std::string origin;  // how it was chosen, for messages
};

// Where rank 0 listens: --rendezvous HOST:PORT when given; else address `address`, or (where the
// row has host lists) the first host of the first list set; port $FABRICBENCH_RENDEZVOUS_PORT,
// else `port_base` + 1 (torchrun's own store, TORCHELASTIC_USE_AGENT_STORE, already listens on
// MASTER_PORT), else `derived_port`. No address variable: --rendezvous is required.
struct RendezvousVariables {
  std::string_view address;
  VarList address_hostlists{};
  std::string_view port_base;
  PortChoice (*derived_port)(const EnvLookup& env) = nullptr;
};

struct LauncherRow {
  JobLauncher id;
  std::string_view name;     // --launcher NAME; also the result document's run.launcher
  std::string_view command;  // what started the job, for messages ("torchrun", "a PyTorchJob")
  RankWiring wiring;
  EnvSignature own;     // variables only this launcher sets
  EnvSignature shared;  // variables other launchers set too: they count after every row's own
  // A further condition on the values (srun's SLURM_PROCID is MPI's rank; sbatch asked for more
  // than one task); null: none.
  bool (*also)(const EnvLookup& env) = nullptr;
  std::array<std::string_view, 6> seen{};  // set without the row's own ones: a partial environment
  std::string_view advice;                 // what to do about a partial environment or a refusal
  RankVariables ranks;
  RendezvousVariables rendezvous;
  // Checks between the row's variables that the generic reading cannot see; throws Error(usage).
  void (*check)(const EnvLookup& env) = nullptr;
};

template <>
struct EnumNames<JobLauncher> {
  static constexpr std::string_view what = "launcher";
  static const std::array<LauncherRow, 9> table;  // in detection order
};

const LauncherRow& launcher_row(JobLauncher launcher);

// The row the variables name, or none; a refused row is returned as any other (choose refuses it).
JobLauncher detect_job_launcher(const EnvLookup& env);

// Every --launcher value: those that leave the job's launcher to detection (auto, processes,
// threads: the last two say how fabricbench's own workers run), then the table's names but sbatch.
std::vector<std::string> launcher_choices();

// The value of the first `FLAG X` or `FLAG=X` of the command line; read before the command line
// is parsed, where an option decides how the process runs (an outside job, the progress format).
std::optional<std::string> option_from_args(const std::vector<std::string>& args, std::string_view flag);

// The job flags of the command line (--rendezvous, --nnodes, --nproc-per-node,
// --insecure-rendezvous) as the FABRICBENCH_* variables they stand for: every rank of the job and
// the ranks fabricbench starts read them there. A flag wins over the variable.
std::map<std::string, std::string> job_flag_variables(const std::vector<std::string>& args);
void apply_job_flags(const std::vector<std::string>& args);

// The command line's --launcher applied to the environment: a row's name forces that launcher
// (local: none), auto/processes/threads detect it. Throws Error(usage) for any other name, a
// refused row (sbatch without srun) or a partial environment, naming the variables seen.
JobLauncher choose_job_launcher(const std::vector<std::string>& args, const EnvLookup& env);

// How this process's ranks meet: a row's wiring, but TCP under MPI when --rendezvous is given.
RankWiring job_wiring(JobLauncher launcher, const EnvLookup& env);

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

// What a row reads from the variables for a TCP rendezvous. Throws Error(usage) naming a
// missing, malformed or contradictory variable.
TcpJobEnv tcp_job_env(JobLauncher launcher, const EnvLookup& env);

// How many nodes (pods) a per-node row's job has (0 for the other rows).
int job_nodes(JobLauncher launcher, const EnvLookup& env);

// How many ranks this process must start on its node (a per-node row whose --nproc-per-node is
// more than 1, in a process that is not one of them): 0 when it is a rank itself.
int node_ranks_to_start(JobLauncher launcher, const EnvLookup& env);

// Under the MPI plugin: the rank and size the launcher's variables announce, to hold MPI's
// against (a plugin built for another MPI starts every process as rank 0 of 1). Throws
// Error(environment) naming both when they differ.
void check_mpi_world(const EnvLookup& env, int mpi_rank, int mpi_size);

// srun's port when none was chosen: 20000 + (SLURM_JOB_ID * 16 + SLURM_STEP_ID) % 20000, the same
// on every rank of a step and different for the steps of one job.
PortChoice slurm_step_port(const EnvLookup& env);

}  // namespace fb
