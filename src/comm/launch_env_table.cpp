// The launcher table: one row per environment a runtime really sets (docs/launch.md cites where
// each variable comes from), and the checks between one row's variables.
#include <fmt/format.h>

#include "comm/launch_env.hpp"
#include "comm/launch_env_vars.hpp"
#include "core/error.hpp"

namespace fb {
namespace {

using launch_vars::get;
using launch_vars::has;
using launch_vars::int_if_number;
using launch_vars::name_value;

// srun's SLURM_PROCID is the rank, unless PMI_RANK says otherwise: Intel MPI's and MPICH's Hydra
// started through srun (its Slurm bootstrap) sets SLURM_* for its proxies, one per node.
bool slurm_ids_are_the_ranks(const EnvLookup& env) {
  const auto pmi = env("PMI_RANK");
  return !pmi || pmi == env("SLURM_PROCID");
}

// A batch script (sbatch) or salloc's shell that asked for more than one task or node, with no MPI
// launcher inside it (whose rows decide): only this host runs this process.
bool allocation_without_step(const EnvLookup& env) {
  if (has(env, "PMI_RANK") || has(env, "PMIX_RANK")) return false;
  return int_if_number(env, "SLURM_NTASKS").value_or(1) > 1 ||
         int_if_number(env, "SLURM_JOB_NUM_NODES").value_or(1) > 1;
}

// The training operator's variables (pkg/controller.v1/pytorch, v1.9): RANK is the pod's index
// (PET_NODE_RANK the same), WORLD_SIZE its pods x nprocPerNode, PET_NNODES its pods or, with an
// elasticPolicy, a range that only torchrun's rendezvous can fill.
void check_pytorchjob(const EnvLookup& env) {
  const auto nnodes = get(env, "PET_NNODES");
  if (nnodes && nnodes->find(':') != std::string::npos)
    FB_USAGE_ERROR(
        fmt::format("{} is a range (a PyTorchJob with an elasticPolicy): its pods meet in "
                    "torchrun's rendezvous; run `torchrun --no-python fabricbench ...` in the pod",
                    name_value(env, "PET_NNODES")));
  if (const auto node_rank = get(env, "PET_NODE_RANK"); node_rank && node_rank != env("RANK"))
    FB_USAGE_ERROR(fmt::format("{} and {} disagree: a PyTorchJob sets both to the pod's index",
                               name_value(env, "RANK"), name_value(env, "PET_NODE_RANK")));
  const int per_pod = int_if_number(env, "PET_NPROC_PER_NODE").value_or(1);
  const auto pods = int_if_number(env, "PET_NNODES");
  const auto world = int_if_number(env, "WORLD_SIZE");
  if (pods && world && *pods * per_pod != *world)
    FB_USAGE_ERROR(fmt::format("{} is not {} x {} processes per pod: the variables disagree",
                               name_value(env, "WORLD_SIZE"), name_value(env, "PET_NNODES"), per_pod));
}

constexpr std::string_view kTorchrunAdvice =
    "start it with torchrun (`torchrun --no-python fabricbench ...`) or set the missing ones; "
    "--launcher local ignores them";

}  // namespace

const std::array<LauncherRow, 9> EnumNames<JobLauncher>::table{{
    {.id = JobLauncher::none,
     .name = "local",
     .command = "fabricbench",
     .wiring = RankWiring::own_workers,
     .own = {},
     .shared = {},
     .also = nullptr,
     .seen = {},
     .advice = {},
     .ranks = {},
     .rendezvous = {},
     .check = nullptr},
    // torchrun (torch.distributed.run) in every worker it starts; also a user's own export of them.
    {.id = JobLauncher::torchrun,
     .name = "torchrun",
     .command = "torchrun",
     .wiring = RankWiring::tcp_rendezvous,
     .own = {.all = true, .vars = {"RANK", "WORLD_SIZE", "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT"}},
     .shared = {},
     .also = nullptr,
     .seen = {"RANK", "WORLD_SIZE", "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT", "TORCHELASTIC_RUN_ID"},
     .advice = kTorchrunAdvice,
     .ranks = {.size = {"WORLD_SIZE"},
               .rank = {"RANK"},
               .local_rank = {"LOCAL_RANK"},
               .local_size = {"LOCAL_WORLD_SIZE"},
               .per_node = false,
               .procs_per_node = {}},
     .rendezvous = {.address = "MASTER_ADDR",
                    .address_hostlists = {},
                    .port_base = "MASTER_PORT",
                    .derived_port = nullptr},
     .check = nullptr},
    // A PyTorchJob pod whose command is fabricbench itself: no LOCAL_RANK, one process per pod
    // unless nprocPerNode (PET_NPROC_PER_NODE) or --nproc-per-node says more.
    {.id = JobLauncher::pytorchjob,
     .name = "pytorchjob",
     .command = "a PyTorchJob",
     .wiring = RankWiring::tcp_rendezvous,
     .own = {.all = true, .vars = {"RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT"}},
     .shared = {},
     .also = nullptr,
     .seen = {"PET_NNODES", "PET_NODE_RANK", "PET_NPROC_PER_NODE", "PET_MASTER_ADDR", "PET_RDZV_ENDPOINT"},
     .advice = "PET_* are torchrun's arguments (a PyTorchJob without a Master replica or with an "
               "elasticPolicy sets no RANK): run `torchrun --no-python fabricbench ...` in the pod",
     .ranks = {.size = {"WORLD_SIZE"},
               .rank = {"RANK"},
               .local_rank = {},
               .local_size = {},
               .per_node = true,
               .procs_per_node = "PET_NPROC_PER_NODE"},
     .rendezvous = {.address = "MASTER_ADDR",
                    .address_hostlists = {},
                    .port_base = "MASTER_PORT",
                    .derived_port = nullptr},
     .check = check_pytorchjob},
    // Open MPI's mpirun (also an MPIJob's launcher pod) and MVAPICH's.
    {.id = JobLauncher::mpi,
     .name = "mpi",
     .command = "mpirun",
     .wiring = RankWiring::mpi_plugin,
     .own = {.all = false, .vars = {"OMPI_COMM_WORLD_SIZE", "MV2_COMM_WORLD_SIZE"}},
     .shared = {},
     .also = nullptr,
     .seen = {"OMPI_COMM_WORLD_RANK", "MV2_COMM_WORLD_RANK"},
     .advice = "start it with mpirun, or --launcher local to ignore them",
     .ranks = {.size = {"OMPI_COMM_WORLD_SIZE", "MV2_COMM_WORLD_SIZE"},
               .rank = {"OMPI_COMM_WORLD_RANK", "MV2_COMM_WORLD_RANK"},
               .local_rank = {"OMPI_COMM_WORLD_LOCAL_RANK", "MV2_COMM_WORLD_LOCAL_RANK"},
               .local_size = {"OMPI_COMM_WORLD_LOCAL_SIZE", "MV2_COMM_WORLD_LOCAL_SIZE"},
               .per_node = false,
               .procs_per_node = {}},
     .rendezvous = {},
     .check = nullptr},
    // A step of srun (SLURM_STEP_ID); also srun --mpi=pmix or pmi2, whose PMI variables it owns.
    {.id = JobLauncher::slurm,
     .name = "slurm",
     .command = "srun",
     .wiring = RankWiring::tcp_rendezvous,
     .own = {.all = true, .vars = {"SLURM_PROCID", "SLURM_NTASKS", "SLURM_STEP_ID"}},
     .shared = {},
     .also = slurm_ids_are_the_ranks,
     .seen = {"SLURM_STEP_ID"},
     .advice = "start it with srun, or --launcher local to ignore them",
     .ranks = {.size = {"SLURM_STEP_NUM_TASKS", "SLURM_NTASKS"},
               .rank = {"SLURM_PROCID"},
               .local_rank = {"SLURM_LOCALID"},
               .local_size = {},
               .per_node = false,
               .procs_per_node = {}},
     .rendezvous = {.address = "MASTER_ADDR",
                    .address_hostlists = {"SLURM_STEP_NODELIST", "SLURM_JOB_NODELIST"},
                    .port_base = "MASTER_PORT",
                    .derived_port = slurm_step_port},
     .check = nullptr},
    {.id = JobLauncher::sbatch,
     .name = "sbatch",
     .command = "sbatch",
     .wiring = RankWiring::refused,
     .own = {.all = true, .vars = {"SLURM_JOB_ID"}},
     .shared = {},
     .also = allocation_without_step,
     .seen = {},
     .advice = "a batch script (or salloc's shell) runs on one host only: start one rank per GPU with "
               "`srun fabricbench ...`, or add --launcher local to measure this host's GPUs alone",
     .ranks = {},
     .rendezvous = {},
     .check = nullptr},
    // A Kubernetes Indexed Job (or a JobSet's): JOB_COMPLETION_INDEX is the pod's index; how many
    // pods and where the first one listens, only the manifest says (--nnodes, --rendezvous).
    {.id = JobLauncher::indexed_job,
     .name = "indexed-job",
     .command = "an Indexed Job",
     .wiring = RankWiring::tcp_rendezvous,
     .own = {.all = true, .vars = {"JOB_COMPLETION_INDEX"}},
     .shared = {},
     .also = nullptr,
     .seen = {kRendezvousVar, kNnodesVar, kNprocPerNodeVar},
     .advice = "--rendezvous, --nnodes and --nproc-per-node need a launcher that says this process's "
               "rank (JOB_COMPLETION_INDEX of an Indexed Job, torchrun's RANK, srun's SLURM_PROCID, ...)",
     .ranks = {.size = {kNnodesVar},
               .rank = {"JOB_COMPLETION_INDEX"},
               .local_rank = {},
               .local_size = {},
               .per_node = true,
               .procs_per_node = {}},
     .rendezvous = {},
     .check = nullptr},
    // Intel MPI's mpirun and MPICH's mpiexec (Hydra), also in an MPIJob: PMI-1 variables.
    {.id = JobLauncher::hydra,
     .name = "hydra",
     .command = "Intel MPI's or MPICH's mpirun (Hydra)",
     .wiring = RankWiring::mpi_plugin,
     .own = {},
     .shared = {.all = true, .vars = {"PMI_RANK", "PMI_SIZE"}},
     .also = nullptr,
     .seen = {"PMI_RANK", "PMI_SIZE"},
     .advice = "start it with mpirun, or --launcher local to ignore them",
     .ranks = {.size = {"PMI_SIZE"},
               .rank = {"PMI_RANK"},
               .local_rank = {"MPI_LOCALRANKID"},
               .local_size = {"MPI_LOCALNRANKS"},
               .per_node = false,
               .procs_per_node = {}},
     .rendezvous = {},
     .check = nullptr},
    // A PMIx server's client (Open MPI 5's prterun, PRRTE, Slurm's pmix plugin): the environment
    // holds the rank and namespace, the size only PMIx_Get (MPI) knows.
    {.id = JobLauncher::pmix,
     .name = "pmix",
     .command = "a PMIx launcher",
     .wiring = RankWiring::mpi_plugin,
     .own = {},
     .shared = {.all = true, .vars = {"PMIX_RANK", "PMIX_NAMESPACE"}},
     .also = nullptr,
     .seen = {"PMIX_RANK", "PMIX_NAMESPACE"},
     .advice = "start it with a PMIx launcher (prterun, mpirun), or --launcher local to ignore them",
     .ranks = {.size = {},
               .rank = {"PMIX_RANK"},
               .local_rank = {},
               .local_size = {},
               .per_node = false,
               .procs_per_node = {}},
     .rendezvous = {},
     .check = nullptr},
}};

}  // namespace fb
