// Which launcher started fabricbench, what its variables say, and Slurm's hostlist syntax.
#include <gtest/gtest.h>

#include <map>

#include "comm/hostlist.hpp"
#include "comm/launch_env.hpp"
#include "core/error.hpp"

namespace {

fb::EnvLookup env_of(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const std::string& name) -> std::optional<std::string> {
    const auto it = vars.find(name);
    return it == vars.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
}

const std::map<std::string, std::string> kTorchrun{{"RANK", "3"},
                                                   {"WORLD_SIZE", "8"},
                                                   {"LOCAL_RANK", "1"},
                                                   {"LOCAL_WORLD_SIZE", "2"},
                                                   {"MASTER_ADDR", "node-a"},
                                                   {"MASTER_PORT", "29500"}};
const std::map<std::string, std::string> kSlurm{
    {"SLURM_PROCID", "5"}, {"SLURM_NTASKS", "16"},   {"SLURM_LOCALID", "1"},
    {"SLURM_NODEID", "2"}, {"SLURM_JOB_ID", "4242"}, {"SLURM_JOB_NODELIST", "gpu[07-09],cpu1"}};

std::map<std::string, std::string> merged(std::map<std::string, std::string> a,
                                          const std::map<std::string, std::string>& b) {
  a.insert(b.begin(), b.end());
  return a;
}

}  // namespace

TEST(LaunchEnv, PrecedenceTorchrunThenMpirunThenSrunThenNone) {
  using fb::JobLauncher;
  EXPECT_EQ(fb::detect_job_launcher(env_of({})), JobLauncher::none);
  EXPECT_EQ(fb::detect_job_launcher(env_of(kSlurm)), JobLauncher::slurm);
  EXPECT_EQ(fb::detect_job_launcher(env_of(kTorchrun)), JobLauncher::torchrun);
  // torchrun inside an sbatch allocation inherits SLURM_*: torchrun wins.
  EXPECT_EQ(fb::detect_job_launcher(env_of(merged(kTorchrun, kSlurm))), JobLauncher::torchrun);
  // mpirun inside an allocation: its own variables win over the allocation's.
  EXPECT_EQ(fb::detect_job_launcher(env_of(merged({{"OMPI_COMM_WORLD_SIZE", "2"}}, kSlurm))),
            JobLauncher::mpi);
  // srun --mpi=pmix sets PMIX_RANK beside SLURM_*: the TCP session, no MPI plugin needed.
  EXPECT_EQ(fb::detect_job_launcher(env_of(merged({{"PMIX_RANK", "0"}}, kSlurm))), JobLauncher::slurm);
  EXPECT_EQ(fb::detect_job_launcher(env_of({{"PMI_SIZE", "2"}})), JobLauncher::mpi);
  // torchrun needs all four; RANK alone (set by other tools) is not a job.
  EXPECT_EQ(fb::detect_job_launcher(env_of({{"RANK", "0"}, {"WORLD_SIZE", "2"}})), JobLauncher::none);
}

TEST(LaunchEnv, LauncherFlagForcesOrIgnores) {
  using fb::JobLauncher;
  const auto both = env_of(merged(kTorchrun, kSlurm));
  EXPECT_EQ(fb::choose_job_launcher({"fb", "run", "all_reduce"}, both), JobLauncher::torchrun);
  EXPECT_EQ(fb::choose_job_launcher({"fb", "run", "--launcher", "slurm"}, both), JobLauncher::slurm);
  EXPECT_EQ(fb::choose_job_launcher({"fb", "run", "--launcher=mpi"}, both), JobLauncher::mpi);
  EXPECT_EQ(fb::choose_job_launcher({"fb", "run", "--launcher", "local"}, both), JobLauncher::none);
  EXPECT_EQ(fb::choose_job_launcher({"fb", "run", "--launcher", "threads"}, both), JobLauncher::torchrun);
  EXPECT_EQ(fb::choose_job_launcher({"fb", "run", "--launcher", "torchrun"}, env_of({})),
            JobLauncher::torchrun);
  EXPECT_DOUBLE_EQ(fb::timeout_from_args({"fb", "run", "--timeout", "7.5"}, 120), 7.5);
  EXPECT_DOUBLE_EQ(fb::timeout_from_args({"fb", "run", "--timeout", "x"}, 120), 120);
}

TEST(LaunchEnv, TorchrunRendezvousesBesideTheAgentStore) {
  const auto j = fb::torchrun_env(env_of(kTorchrun));
  EXPECT_EQ(j.rank, 3);
  EXPECT_EQ(j.size, 8);
  EXPECT_EQ(j.local_rank, 1);
  EXPECT_EQ(j.master_addr, "node-a");
  EXPECT_EQ(j.port, 29501);  // torchrun's store holds 29500
  auto chosen = kTorchrun;
  chosen["FABRICBENCH_RENDEZVOUS_PORT"] = "40000";
  EXPECT_EQ(fb::torchrun_env(env_of(chosen)).port, 40000);
}

TEST(LaunchEnv, TorchrunBadVariablesAreUsageErrors) {
  auto bad = kTorchrun;
  bad["RANK"] = "8";
  try {
    fb::torchrun_env(env_of(bad));
    FAIL() << "RANK 8 of 8 accepted";
  } catch (const fb::Error& e) {
    EXPECT_EQ(e.code(), fb::ExitCode::usage);
    EXPECT_STREQ(e.what(), "RANK=8 is not a rank of a job of WORLD_SIZE=8 (0-7)");
  }
  bad = kTorchrun;
  bad.erase("MASTER_ADDR");
  EXPECT_THROW(fb::torchrun_env(env_of(bad)), fb::Error);
  bad = kTorchrun;
  bad["WORLD_SIZE"] = "eight";
  EXPECT_THROW(fb::torchrun_env(env_of(bad)), fb::Error);
  bad = kTorchrun;
  bad["LOCAL_RANK"] = "2";  // LOCAL_WORLD_SIZE 2
  EXPECT_THROW(fb::torchrun_env(env_of(bad)), fb::Error);
}

TEST(LaunchEnv, SlurmRankZeroIsTheFirstHostAndThePortComesFromTheJob) {
  const auto j = fb::slurm_env(env_of(kSlurm));
  EXPECT_EQ(j.rank, 5);
  EXPECT_EQ(j.size, 16);
  EXPECT_EQ(j.local_rank, 1);
  EXPECT_EQ(j.master_addr, "gpu07");
  EXPECT_EQ(j.port, 20000 + (4242 * 16) % 20000);  // 27872
  auto step = kSlurm;
  step["SLURM_STEP_ID"] = "3";
  step["SLURM_STEP_NODELIST"] = "gpu[08-09]";
  step["SLURM_STEP_NUM_TASKS"] = "8";
  const auto s = fb::slurm_env(env_of(step));
  EXPECT_EQ(s.port, 20000 + (4242 * 16 + 3) % 20000);
  EXPECT_EQ(s.master_addr, "gpu08");
  EXPECT_EQ(s.size, 8);
  step["MASTER_ADDR"] = "head";
  step["MASTER_PORT"] = "6000";
  EXPECT_EQ(fb::slurm_env(env_of(step)).master_addr, "head");
  EXPECT_EQ(fb::slurm_env(env_of(step)).port, 6001);
}

TEST(Hostlist, ExpandsSlurmSyntax) {
  using V = std::vector<std::string>;
  EXPECT_EQ(fb::expand_hostlist("gpu[01-03,07],cpu5"), (V{"gpu01", "gpu02", "gpu03", "gpu07", "cpu5"}));
  EXPECT_EQ(fb::expand_hostlist("n[08-11]"), (V{"n08", "n09", "n10", "n11"}));
  EXPECT_EQ(fb::expand_hostlist("n[098-101]"), (V{"n098", "n099", "n100", "n101"}));
  EXPECT_EQ(fb::expand_hostlist("r[1-2]n[01-02]"), (V{"r1n01", "r1n02", "r2n01", "r2n02"}));
  EXPECT_EQ(fb::expand_hostlist("a,b[3],c"), (V{"a", "b3", "c"}));
  EXPECT_EQ(fb::expand_hostlist("rack1-node[9-10].example"),
            (V{"rack1-node9.example", "rack1-node10.example"}));
  EXPECT_TRUE(fb::expand_hostlist("").empty());
  EXPECT_THROW(fb::expand_hostlist("gpu[01-03"), fb::Error);
  EXPECT_THROW(fb::expand_hostlist("gpu01]"), fb::Error);
  EXPECT_THROW(fb::expand_hostlist("gpu[05-01]"), fb::Error);
  EXPECT_THROW(fb::expand_hostlist("gpu[a-b]"), fb::Error);
}

TEST(Hostlist, CompressesToBracketsAndBack) {
  EXPECT_EQ(fb::compress_hostlist({"gpu01", "gpu02", "gpu03", "gpu07", "cpu5"}), "gpu[01-03,07],cpu5");
  EXPECT_EQ(fb::compress_hostlist({"n10", "n9", "n11"}), "n[10-11],n9");  // widths differ: 9 is not 09
  EXPECT_EQ(fb::compress_hostlist({"login"}), "login");
  EXPECT_EQ(fb::compress_hostlist({"a3", "a3"}), "a3");
  EXPECT_EQ(fb::compress_hostlist({}), "");
  const std::vector<std::string> hosts{"node0998", "node0999", "node1000", "node1002", "x"};
  EXPECT_EQ(fb::compress_hostlist(hosts), "node[0998-1000,1002],x");
  EXPECT_EQ(fb::expand_hostlist(fb::compress_hostlist(hosts)), hosts);
}
