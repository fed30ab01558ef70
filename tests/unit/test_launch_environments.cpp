// The launcher table's rows for the environments beyond torchrun, mpirun and srun
// (test_launch_env.cpp): a PyTorchJob's pod without torchrun, Hydra (Intel MPI, MPICH), PMIx, an
// Indexed Job, a Slurm batch script without srun; read from environments captured here or written
// from the operators' source (tests/fixtures/launch_env/README.md says which).
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "comm/launch_env.hpp"
#include "core/error.hpp"
#include "core/file_io.hpp"
#include "expect_error.hpp"

namespace {

using fb::JobLauncher;
using Vars = std::map<std::string, std::string>;

fb::EnvLookup env_of(Vars vars) {
  return [vars = std::move(vars)](const std::string& name) -> std::optional<std::string> {
    const auto it = vars.find(name);
    return it == vars.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
}

// A fixture's NAME=value lines (as `env` prints them), with `extra` on top.
Vars fixture(const std::string& name, const Vars& extra = {}) {
  std::istringstream in(fb::read_file(std::string(FB_FIXTURE_DIR) + "/launch_env/" + name));
  Vars vars;
  for (std::string line; std::getline(in, line);)
    if (const auto eq = line.find('='); eq != std::string::npos)
      vars[line.substr(0, eq)] = line.substr(eq + 1);
  for (const auto& [k, v] : extra) vars[k] = v;
  return vars;
}

JobLauncher choose(const Vars& vars, std::vector<std::string> args = {"fb", "doctor"}) {
  return fb::choose_job_launcher(args, env_of(vars));
}

}  // namespace

TEST(LaunchEnvironments, CapturedSrunStepIsSlurmAndItsBatchScriptIsRefusedNamingSrun) {
  const auto step = fixture("slurm_srun_step_rank1_of_2.env");
  EXPECT_EQ(choose(step), JobLauncher::slurm);
  const auto j = fb::tcp_job_env(JobLauncher::slurm, env_of(step));
  EXPECT_EQ(j.rank, 1);
  EXPECT_EQ(j.size, 2);
  EXPECT_EQ(j.local_rank, 1);
  EXPECT_EQ(j.master_addr, "vm");  // SLURM_STEP_NODELIST
  EXPECT_EQ(j.port, 20000 + (295 * 16 + 0) % 20000);
  // The batch script of sbatch -n 2 has SLURM_PROCID=0 and SLURM_NTASKS=2 but no step: before, rank
  // 0 waited --timeout for a rank 1 that never came. Now it is refused at once, naming srun.
  const auto batch = fixture("slurm_sbatch_script_n2.env");
  EXPECT_EQ(fb::detect_job_launcher(env_of(batch)), JobLauncher::sbatch);
  expect_usage_error([&] { choose(batch); },
                     "started by sbatch without a launcher step (SLURM_JOB_ID=295, SLURM_NTASKS=2, "
                     "SLURM_JOB_NUM_NODES=1): a batch script (or salloc's shell) runs on one host only: "
                     "start one rank per GPU with `srun fabricbench ...`");
  EXPECT_EQ(choose(batch, {"fb", "doctor", "--launcher", "local"}), JobLauncher::none);
  expect_usage_error([&] { choose(fixture("slurm_salloc_shell_n2.env")); }, "started by sbatch");
  // One task on one node: the batch script is the job; fabricbench starts its own workers.
  EXPECT_EQ(choose(fixture("slurm_sbatch_script_n2.env", {{"SLURM_NTASKS", "1"}})), JobLauncher::none);
  // --launcher sbatch is no choice.
  expect_usage_error([&] { choose(batch, {"fb", "run", "--launcher", "sbatch"}); }, "unknown --launcher");
}

TEST(LaunchEnvironments, CapturedMpirunIsTheMpiRowAndItsVariablesCheckMpisWorld) {
  const auto ompi = fixture("openmpi_4.1.4_mpirun_rank1_of_2.env");
  EXPECT_EQ(choose(ompi), JobLauncher::mpi);  // before PMIX_RANK's row
  EXPECT_EQ(fb::job_wiring(JobLauncher::mpi, env_of(ompi)), fb::RankWiring::mpi_plugin);
  EXPECT_NO_THROW(fb::check_mpi_world(env_of(ompi), 1, 2));
  expect_error([&] { fb::check_mpi_world(env_of(ompi), 0, 1); }, fb::ExitCode::environment,
               "MPI started this process as rank 0 of 1, but OMPI_COMM_WORLD_RANK=1 and "
               "OMPI_COMM_WORLD_SIZE=2 (mpirun) say otherwise");
  // --rendezvous: the same ranks over TCP, no MPI plugin.
  auto tcp = ompi;
  tcp[fb::kRendezvousVar] = "node-a:29400";
  EXPECT_EQ(fb::job_wiring(JobLauncher::mpi, env_of(tcp)), fb::RankWiring::tcp_rendezvous);
  const auto j = fb::tcp_job_env(JobLauncher::mpi, env_of(tcp));
  EXPECT_EQ(j.rank, 1);
  EXPECT_EQ(j.size, 2);
  EXPECT_EQ(j.local_rank, 1);
  EXPECT_EQ(j.master_addr, "node-a");
  EXPECT_EQ(j.port, 29400);
  EXPECT_EQ(j.port_origin, "--rendezvous");
  // Without OMPI_COMM_WORLD_*: the PMIx row, whose size only MPI knows.
  auto pmix = ompi;
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK"}) pmix.erase(v);
  EXPECT_EQ(choose(pmix), JobLauncher::pmix);
  pmix[fb::kRendezvousVar] = "node-a:29400";
  expect_usage_error([&] { fb::tcp_job_env(JobLauncher::pmix, env_of(pmix)); },
                     "--launcher pmix: the environment says no job size");
  expect_usage_error(
      [] {
        choose({{"PMIX_RANK", "0"}});
      },
      "a partial environment of a PMIx launcher: PMIX_RANK=0 set but not PMIX_NAMESPACE");
}

TEST(LaunchEnvironments, HydraRowReadsPmiVariablesAndCatchesAPluginOfAnotherMpi) {
  // What Intel MPI's and MPICH's Hydra set (rank 5 of 16, the second of 8 on its node).
  const Vars hydra{{"PMI_RANK", "5"}, {"PMI_SIZE", "16"}, {"MPI_LOCALRANKID", "1"}, {"MPI_LOCALNRANKS", "8"}};
  EXPECT_EQ(choose(hydra), JobLauncher::hydra);
  EXPECT_EQ(fb::launcher_row(JobLauncher::hydra).wiring, fb::RankWiring::mpi_plugin);
  // An Open MPI plugin under Hydra: MPI_Init as a singleton, every process rank 0 of 1.
  expect_error([&] { fb::check_mpi_world(env_of(hydra), 0, 1); }, fb::ExitCode::environment,
               "PMI_RANK=5 and PMI_SIZE=16 (Intel MPI's or MPICH's mpirun (Hydra)) say otherwise");
  auto tcp = hydra;
  tcp[fb::kRendezvousVar] = "[fd00::1]:29400";
  const auto j = fb::tcp_job_env(JobLauncher::hydra, env_of(tcp));
  EXPECT_EQ(j.rank, 5);
  EXPECT_EQ(j.size, 16);
  EXPECT_EQ(j.local_rank, 1);
  EXPECT_EQ(j.master_addr, "fd00::1");
  tcp["MPI_LOCALRANKID"] = "8";
  expect_usage_error([&] { fb::tcp_job_env(JobLauncher::hydra, env_of(tcp)); },
                     "MPI_LOCALRANKID=8 is not a rank of a job of MPI_LOCALNRANKS=8");
  // Hydra started through srun (its Slurm bootstrap): SLURM_PROCID is the node's proxy, not the rank.
  Vars proxies = hydra;
  proxies.insert(
      {{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "2"}, {"SLURM_STEP_ID", "0"}, {"SLURM_JOB_ID", "9"}});
  EXPECT_EQ(choose(proxies), JobLauncher::hydra);
  // srun --mpi=pmi2 sets PMI_RANK to SLURM_PROCID: that is Slurm's own step.
  proxies["PMI_RANK"] = "0";
  EXPECT_EQ(choose(proxies), JobLauncher::slurm);
}

TEST(LaunchEnvironments, PyTorchJobPodWithoutTorchrunStartsItsNodesRanks) {
  const auto master = fixture("pytorchjob_master_nproc8.env");
  const auto worker = fixture("pytorchjob_worker0_nproc8.env");
  EXPECT_EQ(choose(master), JobLauncher::pytorchjob);
  EXPECT_EQ(fb::launcher_row(JobLauncher::pytorchjob).command, "a PyTorchJob");
  // nprocPerNode 8: WORLD_SIZE=16 counts processes, RANK the pod. The pod's process starts 8 ranks.
  EXPECT_EQ(fb::node_ranks_to_start(JobLauncher::pytorchjob, env_of(worker)), 8);
  expect_usage_error([&] { fb::tcp_job_env(JobLauncher::pytorchjob, env_of(worker)); },
                     "FABRICBENCH_LOCAL_RANK is not set: the 8 ranks of a node are started by fabricbench");
  const auto third = fixture("pytorchjob_worker0_nproc8.env", {{fb::kLocalRankVar, "3"}});
  EXPECT_EQ(fb::node_ranks_to_start(JobLauncher::pytorchjob, env_of(third)), 0);  // it is a rank
  const auto j = fb::tcp_job_env(JobLauncher::pytorchjob, env_of(third));
  EXPECT_EQ(j.rank, 11);  // pod 1 x 8 + 3
  EXPECT_EQ(j.size, 16);
  EXPECT_EQ(j.local_rank, 3);
  EXPECT_EQ(j.master_addr, "fabricbench-master-0");
  EXPECT_EQ(j.port, 23457);  // the operator's MASTER_PORT + 1
  // nprocPerNode auto (the operator's default): one rank per pod, its GPU 0.
  const auto autos = fixture("pytorchjob_worker1_auto.env");
  EXPECT_EQ(fb::node_ranks_to_start(JobLauncher::pytorchjob, env_of(autos)), 0);
  const auto a = fb::tcp_job_env(JobLauncher::pytorchjob, env_of(autos));
  EXPECT_EQ(a.rank, 2);
  EXPECT_EQ(a.size, 3);
  EXPECT_EQ(a.local_rank, 0);
  // ... unless --nproc-per-node says how many GPUs each pod has.
  EXPECT_EQ(fb::node_ranks_to_start(JobLauncher::pytorchjob, env_of(fixture("pytorchjob_worker1_auto.env",
                                                                            {{fb::kNprocPerNodeVar, "4"}}))),
            4);
  const auto four =
      fixture("pytorchjob_worker1_auto.env", {{fb::kNprocPerNodeVar, "4"}, {fb::kLocalRankVar, "2"}});
  EXPECT_EQ(fb::tcp_job_env(JobLauncher::pytorchjob, env_of(four)).rank, 10);
  EXPECT_EQ(fb::tcp_job_env(JobLauncher::pytorchjob, env_of(four)).size, 12);
}

TEST(LaunchEnvironments, PyTorchJobContradictionsAndElasticPodsAreOneLineErrors) {
  const auto job = [](const Vars& vars) {
    return [vars] { fb::tcp_job_env(JobLauncher::pytorchjob, env_of(vars)); };
  };
  expect_usage_error(
      job(fixture("pytorchjob_master_nproc8.env", {{"PET_NODE_RANK", "1"}, {fb::kLocalRankVar, "0"}})),
      "RANK=0 and PET_NODE_RANK=1 disagree");
  expect_usage_error(
      job(fixture("pytorchjob_master_nproc8.env", {{"WORLD_SIZE", "24"}, {fb::kLocalRankVar, "0"}})),
      "WORLD_SIZE=24 is not PET_NNODES=2 x 8 processes per pod");
  auto odd = fixture("pytorchjob_master_nproc8.env", {{"WORLD_SIZE", "12"}});
  odd.erase("PET_NNODES");  // an older operator's pod
  expect_usage_error(job(odd), "WORLD_SIZE=12 is not a multiple of PET_NPROC_PER_NODE=8");
  expect_usage_error(job(fixture("pytorchjob_master_nproc8.env", {{fb::kNprocPerNodeVar, "4"}})),
                     "--nproc-per-node 4 disagrees with PET_NPROC_PER_NODE=8");
  expect_usage_error(job(fixture("pytorchjob_worker1_auto.env", {{"RANK", "3"}, {"PET_NODE_RANK", "3"}})),
                     "RANK=3 is not the index of one of 3 nodes");
  // An elasticPolicy without a Master: torchrun's arguments only, no RANK.
  const auto elastic = fixture("pytorchjob_elastic_worker.env");
  EXPECT_EQ(fb::detect_job_launcher(env_of(elastic)), JobLauncher::none);
  expect_usage_error(
      [&] { choose(elastic); },
      "a partial environment of a PyTorchJob: PET_NNODES=2:4, PET_NPROC_PER_NODE=8, "
      "PET_RDZV_ENDPOINT=fabricbench-worker-0:23456 set but not RANK, WORLD_SIZE, MASTER_ADDR, "
      "MASTER_PORT; PET_* are torchrun's arguments");
  expect_usage_error(job(fixture("pytorchjob_master_nproc8.env", {{"PET_NNODES", "1:4"}})),
                     "PET_NNODES=1:4 is a range (a PyTorchJob with an elasticPolicy)");
}

TEST(LaunchEnvironments, IndexedJobNeedsNnodesAndRendezvousFromTheManifest) {
  const Vars pod{{"JOB_COMPLETION_INDEX", "2"}};
  EXPECT_EQ(choose(pod), JobLauncher::indexed_job);
  expect_usage_error([&] { fb::tcp_job_env(JobLauncher::indexed_job, env_of(pod)); },
                     "--launcher indexed-job: --nnodes (FABRICBENCH_NNODES) is not given");
  Vars one_each = pod;
  one_each[fb::kNnodesVar] = "4";
  expect_usage_error([&] { fb::tcp_job_env(JobLauncher::indexed_job, env_of(one_each)); },
                     "no variable of an Indexed Job says where rank 0 listens: give --rendezvous HOST:PORT");
  one_each[fb::kRendezvousVar] = "fabricbench-0.fabricbench:29400";
  EXPECT_EQ(fb::node_ranks_to_start(JobLauncher::indexed_job, env_of(one_each)), 0);
  const auto j = fb::tcp_job_env(JobLauncher::indexed_job, env_of(one_each));
  EXPECT_EQ(j.rank, 2);
  EXPECT_EQ(j.size, 4);
  EXPECT_EQ(j.local_rank, 0);
  EXPECT_EQ(j.master_addr, "fabricbench-0.fabricbench");
  EXPECT_EQ(j.port, 29400);
  Vars eight = one_each;
  eight[fb::kNprocPerNodeVar] = "8";
  EXPECT_EQ(fb::node_ranks_to_start(JobLauncher::indexed_job, env_of(eight)), 8);
  eight[fb::kLocalRankVar] = "7";
  EXPECT_EQ(fb::tcp_job_env(JobLauncher::indexed_job, env_of(eight)).rank, 23);
  EXPECT_EQ(fb::tcp_job_env(JobLauncher::indexed_job, env_of(eight)).size, 32);
  one_each["JOB_COMPLETION_INDEX"] = "4";
  expect_usage_error([&] { fb::tcp_job_env(JobLauncher::indexed_job, env_of(one_each)); },
                     "JOB_COMPLETION_INDEX=4 is not the index of one of 4 nodes");
  one_each["JOB_COMPLETION_INDEX"] = "0";
  one_each[fb::kRendezvousVar] = "fabricbench-0";
  expect_usage_error([&] { fb::tcp_job_env(JobLauncher::indexed_job, env_of(one_each)); },
                     "--rendezvous 'fabricbench-0' is not HOST:PORT");
  // The flags without any launcher: no rank for this process, said so.
  expect_usage_error(
      [] {
        choose({{fb::kRendezvousVar, "a:1"}, {fb::kNnodesVar, "2"}});
      },
      "a partial environment of an Indexed Job: FABRICBENCH_RENDEZVOUS=a:1, FABRICBENCH_NNODES=2 "
      "set but not JOB_COMPLETION_INDEX");
}

TEST(LaunchEnvironments, JobFlagsStandForFabricbenchsOwnVariables) {
  const auto vars = fb::job_flag_variables(
      {"fb", "doctor", "--rendezvous", "fb-0.fb:29400", "--nnodes=4", "--nproc-per-node", "8", "--quick"});
  EXPECT_EQ(
      vars,
      (Vars{{fb::kRendezvousVar, "fb-0.fb:29400"}, {fb::kNnodesVar, "4"}, {fb::kNprocPerNodeVar, "8"}}));
  EXPECT_TRUE(fb::job_flag_variables({"fb", "doctor", "--quick"}).empty());
  // torchrun with --rendezvous: the flag wins over MASTER_ADDR/MASTER_PORT + 1.
  const Vars torchrun{{"RANK", "1"},        {"WORLD_SIZE", "2"},   {"LOCAL_RANK", "1"},
                      {"MASTER_ADDR", "a"}, {"MASTER_PORT", "10"}, {fb::kRendezvousVar, "b:20"}};
  const auto j = fb::tcp_job_env(JobLauncher::torchrun, env_of(torchrun));
  EXPECT_EQ(j.master_addr, "b");
  EXPECT_EQ(j.port, 20);
}
