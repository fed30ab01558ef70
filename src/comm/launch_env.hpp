#pragma once
// Which outside launcher started this process, and what its environment variables say: rank,
// size, local rank and where rank 0 listens. Pure functions of the variables (tests pass a map).
//
// One row per launcher (EnumNames<JobLauncher>::table, launch_env.cpp) says how it is recognised,
// where a rank learns who it is and how the ranks meet; adding a launcher is adding a row.
// `--launcher auto` (the default; also processes and threads) takes the first row whose own
// variables are all (or any, as the row says) set, in table order, then the first whose shared
// variables are: torchrun first (torchrun inside a Slurm allocation also inherits SLURM_*), then
// mpirun, then srun (also srun --mpi=pmix: its PMI variables are mpirun's shared ones, so Slurm's
// own win: the TCP rendezvous, no MPI), else none: fabricbench starts its own workers.
// `--launcher local` ignores every launcher variable; mpi, torchrun and slurm force one.
// Every rank's host is its own host name, sent to rank 0.
#include <array>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/enum_names.hpp"

namespace fb {

enum class JobLauncher { none, mpi, torchrun, slurm };

// Looks a variable up; nullopt when unset.
using EnvLookup = std::function<std::optional<std::string>(const std::string& name)>;
// The process environment.
std::optional<std::string> process_env(const std::string& name);

// How the ranks of a job find each other.
enum class RankWiring {
  own_workers,     // no outside launcher: fabricbench starts its workers itself
  mpi_plugin,      // MPI's own rank, size and exchanges (comm/mpi_session)
  tcp_rendezvous,  // the launcher's variables and a TCP rendezvous with rank 0 (comm/tcp_session)
};

// Variables a launcher sets: all of them, or any one, must be set to recognise it.
struct EnvSignature {
  bool all = true;
  std::array<std::string_view, 4> vars{};  // unused slots empty
};

// Where a rank of a tcp_rendezvous launcher reads who it is. Lists: the first variable set.
struct RankVariables {
  std::array<std::string_view, 2> size{};
  std::string_view rank;
  std::string_view local_rank;  // optional; unset: ranks of a host in rank order
  std::string_view local_size;  // optional: bounds local_rank
};

struct PortChoice {
  int port = 0;
  std::string origin;  // how it was chosen, for messages
};

// Where rank 0 listens. Address: `address`, else (where the row has host lists) the first host of
// the first list set. Port: $FABRICBENCH_RENDEZVOUS_PORT, else `port_base` + 1 (torchrun's own
// store, TORCHELASTIC_USE_AGENT_STORE, already listens on MASTER_PORT), else `derived_port`.
// A variable without a fallback is required.
struct RendezvousVariables {
  std::string_view address;
  std::array<std::string_view, 2> address_hostlists{};
  std::string_view port_base;
  PortChoice (*derived_port)(const EnvLookup& env) = nullptr;
};

struct LauncherRow {
  JobLauncher id;
  std::string_view name;     // --launcher NAME; also the result document's run.launcher
  std::string_view command;  // what users type to start the job, for messages
  RankWiring wiring;
  EnvSignature own;                // variables only this launcher sets
  EnvSignature shared;             // variables other launchers set too: they count after every row's own
  RankVariables ranks;             // tcp_rendezvous only (MPI has its own)
  RendezvousVariables rendezvous;  // tcp_rendezvous only
};

template <>
struct EnumNames<JobLauncher> {
  static constexpr std::string_view what = "launcher";
  static const std::array<LauncherRow, 4> table;  // local, torchrun, mpi, slurm: in detection order
};

const LauncherRow& launcher_row(JobLauncher launcher);

JobLauncher detect_job_launcher(const EnvLookup& env);

// Every --launcher value: those that leave the job's launcher to detection (auto, processes,
// threads: the last two say how fabricbench's own workers run), then the table's names.
std::vector<std::string> launcher_choices();

// The value of the first `FLAG X` or `FLAG=X` of the command line; read before the command line
// is parsed, where an option decides how the process runs (an outside job, the progress format).
std::optional<std::string> option_from_args(const std::vector<std::string>& args, std::string_view flag);

// The command line's --launcher applied to the environment: a row's name forces that launcher
// (local: none), auto/processes/threads detect it. Throws Error(usage) for any other name.
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

// What a tcp_rendezvous launcher's row reads from the variables. Throws Error(usage) naming a
// missing or malformed variable.
TcpJobEnv tcp_job_env(JobLauncher launcher, const EnvLookup& env);

// srun's port when none was chosen: 20000 + (SLURM_JOB_ID * 16 + SLURM_STEP_ID) % 20000, the same
// on every rank of a step and different for the steps of one job.
PortChoice slurm_step_port(const EnvLookup& env);

}  // namespace fb
