// Which launcher started fabricbench (the launcher table), what its variables say, and Slurm's
// hostlist syntax.
#include <gtest/gtest.h>

#include <map>

#include "comm/hostlist.hpp"
#include "comm/launch_env.hpp"
#include "core/error.hpp"
#include "expect_error.hpp"

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
    {"SLURM_NODEID", "2"}, {"SLURM_JOB_ID", "4242"}, {"SLURM_JOB_NODELIST", "gpu[07-09],cpu1"},
    {"SLURM_STEP_ID", "0"}};

std::map<std::string, std::string> merged(std::map<std::string, std::string> a,
                                          const std::map<std::string, std::string>& b) {
  a.insert(b.begin(), b.end());
  return a;
}

}  // namespace

// One test per row of the launcher table: how it is recognised, what its rank reads, how the
// ranks meet and what users type; then the order between rows and the --launcher flag.

TEST(LaunchEnv, LocalRowFabricbenchStartsItsOwnWorkers) {
  const auto& row = fb::launcher_row(fb::JobLauncher::none);
  EXPECT_EQ(row.name, "local");
  EXPECT_EQ(row.wiring, fb::RankWiring::own_workers);
  EXPECT_EQ(fb::detect_job_launcher(env_of({})), fb::JobLauncher::none);
  // RANK and WORLD_SIZE alone are no launcher's, and not a run on this host alone either: the
  // environment is partial, and choosing a launcher says which variables are set and missing.
  EXPECT_EQ(fb::detect_job_launcher(env_of({{"RANK", "0"}, {"WORLD_SIZE", "2"}})), fb::JobLauncher::none);
  expect_usage_error(
      [] {
        fb::choose_job_launcher({"fb", "topo"}, env_of({{"RANK", "0"}, {"WORLD_SIZE", "2"}}));
      },
      "a partial environment of torchrun: RANK=0, WORLD_SIZE=2 set but not LOCAL_RANK, MASTER_ADDR, "
      "MASTER_PORT; start it with torchrun");
  EXPECT_EQ(fb::choose_job_launcher({"fb", "topo", "--launcher", "local"}, env_of({{"RANK", "0"}})),
            fb::JobLauncher::none);
  // --launcher local ignores every launcher's variables.
  EXPECT_EQ(fb::choose_job_launcher({"fb", "run", "--launcher", "local"}, env_of(merged(kTorchrun, kSlurm))),
            fb::JobLauncher::none);
  expect_error([] { fb::tcp_job_env(fb::JobLauncher::none, env_of({})); }, fb::ExitCode::run_failed,
               "no TCP rendezvous");
}

TEST(LaunchEnv, TorchrunRowReadsRankSizeLocalRankAndMaster) {
  const auto& row = fb::launcher_row(fb::JobLauncher::torchrun);
  EXPECT_EQ(row.name, "torchrun");
  EXPECT_EQ(row.command, "torchrun");
  EXPECT_EQ(row.wiring, fb::RankWiring::tcp_rendezvous);
  EXPECT_EQ(fb::detect_job_launcher(env_of(kTorchrun)), fb::JobLauncher::torchrun);
  for (const char* missing : {"RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT"}) {  // all four needed
    auto partial = kTorchrun;
    partial.erase(missing);
    EXPECT_EQ(fb::detect_job_launcher(env_of(partial)), fb::JobLauncher::none) << missing;
    EXPECT_THROW(fb::choose_job_launcher({"fb", "run"}, env_of(partial)), fb::Error) << missing;
  }
  // Without LOCAL_RANK it is a PyTorchJob's pod running fabricbench itself (test_launch_env_k8s.cpp).
  auto pod = kTorchrun;
  pod.erase("LOCAL_RANK");
  EXPECT_EQ(fb::detect_job_launcher(env_of(pod)), fb::JobLauncher::pytorchjob);
  const auto j = fb::tcp_job_env(fb::JobLauncher::torchrun, env_of(kTorchrun));
  EXPECT_EQ(j.launcher, fb::JobLauncher::torchrun);
  EXPECT_EQ(j.rank, 3);
  EXPECT_EQ(j.size, 8);
  EXPECT_EQ(j.local_rank, 1);
  EXPECT_EQ(j.master_addr, "node-a");
  EXPECT_EQ(j.port, 29501);  // torchrun's store holds 29500
  EXPECT_EQ(j.port_origin, "MASTER_PORT + 1");
  auto chosen = kTorchrun;
  chosen["FABRICBENCH_RENDEZVOUS_PORT"] = "40000";
  EXPECT_EQ(fb::tcp_job_env(fb::JobLauncher::torchrun, env_of(chosen)).port, 40000);
  auto no_local = kTorchrun;
  no_local.erase("LOCAL_RANK");
  EXPECT_EQ(fb::tcp_job_env(fb::JobLauncher::torchrun, env_of(no_local)).local_rank, -1);  // from the hosts
}

TEST(LaunchEnv, MpiRowIsRecognisedByMpisVariablesAndMeetsThroughThePlugin) {
  using fb::JobLauncher;
  const auto& row = fb::launcher_row(JobLauncher::mpi);
  EXPECT_EQ(row.name, "mpi");
  EXPECT_EQ(row.command, "mpirun");
  EXPECT_EQ(row.wiring, fb::RankWiring::mpi_plugin);
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "MV2_COMM_WORLD_SIZE"})
    EXPECT_EQ(fb::detect_job_launcher(env_of({{var, "2"}})), JobLauncher::mpi) << var;
  // PMI_* and PMIX_* are Hydra's and PMIx's rows (test_launch_env_k8s.cpp).
  EXPECT_EQ(fb::detect_job_launcher(env_of({{"PMI_RANK", "1"}, {"PMI_SIZE", "2"}})), JobLauncher::hydra);
  // mpirun inside an allocation: its own variables win over the allocation's.
  EXPECT_EQ(fb::detect_job_launcher(env_of(merged({{"OMPI_COMM_WORLD_SIZE", "2"}}, kSlurm))),
            JobLauncher::mpi);
  // Rank and size are MPI's own: no variables to read, no TCP rendezvous.
  expect_error(
      [] {
        fb::tcp_job_env(JobLauncher::mpi, env_of({{"OMPI_COMM_WORLD_SIZE", "2"}}));
      },
      fb::ExitCode::run_failed, "--launcher mpi has no TCP rendezvous");
}

TEST(LaunchEnv, SlurmRowRankZeroIsTheFirstHostAndThePortComesFromTheJob) {
  using fb::JobLauncher;
  const auto& row = fb::launcher_row(JobLauncher::slurm);
  EXPECT_EQ(row.name, "slurm");
  EXPECT_EQ(row.command, "srun");
  EXPECT_EQ(row.wiring, fb::RankWiring::tcp_rendezvous);
  EXPECT_EQ(fb::detect_job_launcher(env_of(kSlurm)), JobLauncher::slurm);
  // srun --mpi=pmix sets PMIX_RANK beside SLURM_*: the TCP session, no MPI plugin needed.
  EXPECT_EQ(fb::detect_job_launcher(env_of(merged({{"PMIX_RANK", "0"}}, kSlurm))), JobLauncher::slurm);
  const auto j = fb::tcp_job_env(JobLauncher::slurm, env_of(kSlurm));
  EXPECT_EQ(j.rank, 5);
  EXPECT_EQ(j.size, 16);
  EXPECT_EQ(j.local_rank, 1);
  EXPECT_EQ(j.master_addr, "gpu07");
  EXPECT_EQ(j.port, 20000 + (4242 * 16) % 20000);  // 27872
  auto step = kSlurm;
  step["SLURM_STEP_ID"] = "3";
  step["SLURM_STEP_NODELIST"] = "gpu[08-09]";
  step["SLURM_STEP_NUM_TASKS"] = "8";
  const auto s = fb::tcp_job_env(JobLauncher::slurm, env_of(step));
  EXPECT_EQ(s.port, 20000 + (4242 * 16 + 3) % 20000);
  EXPECT_EQ(s.port_origin, "derived from SLURM_JOB_ID and SLURM_STEP_ID");
  EXPECT_EQ(s.master_addr, "gpu08");
  EXPECT_EQ(s.size, 8);
  step["MASTER_ADDR"] = "head";
  step["MASTER_PORT"] = "6000";
  EXPECT_EQ(fb::tcp_job_env(JobLauncher::slurm, env_of(step)).master_addr, "head");
  EXPECT_EQ(fb::tcp_job_env(JobLauncher::slurm, env_of(step)).port, 6001);
  auto no_hosts = kSlurm;
  no_hosts.erase("SLURM_JOB_NODELIST");
  expect_usage_error([&] { fb::tcp_job_env(JobLauncher::slurm, env_of(no_hosts)); },
                     "--launcher slurm: the variable SLURM_JOB_NODELIST is not set");
}

TEST(LaunchEnv, TorchrunComesBeforeSlurmAndMpirunsSharedVariablesAfterBoth) {
  using fb::JobLauncher;
  // torchrun inside an sbatch allocation inherits SLURM_*: torchrun wins.
  EXPECT_EQ(fb::detect_job_launcher(env_of(merged(kTorchrun, kSlurm))), JobLauncher::torchrun);
  EXPECT_EQ(fb::detect_job_launcher(env_of(merged(kTorchrun, {{"OMPI_COMM_WORLD_SIZE", "8"}}))),
            JobLauncher::torchrun);
}

TEST(LaunchEnv, UnknownLauncherNameIsAUsageErrorNamingTheKnownOnes) {
  // Before, an unknown name fell back to detection: a job could start under the wrong launcher.
  const std::string known =
      "(known: auto, processes, threads, local, torchrun, pytorchjob, mpi, slurm, indexed-job, hydra, pmix)";
  expect_usage_error(
      [] {
        fb::choose_job_launcher({"fb", "run", "--launcher", "pmi"}, env_of(kTorchrun));
      },
      "unknown --launcher 'pmi' " + known);
  expect_usage_error(
      [] {
        fb::choose_job_launcher({"fb", "run", "--launcher=kubernetes"}, env_of({}));
      },
      "unknown --launcher 'kubernetes' " + known);
}

TEST(LaunchEnv, LauncherFlagForcesOrDetects) {
  using fb::JobLauncher;
  const auto both = env_of(merged(kTorchrun, kSlurm));
  EXPECT_EQ(fb::choose_job_launcher({"fb", "run", "all_reduce"}, both), JobLauncher::torchrun);
  EXPECT_EQ(fb::choose_job_launcher({"fb", "run", "--launcher", "slurm"}, both), JobLauncher::slurm);
  EXPECT_EQ(fb::choose_job_launcher({"fb", "run", "--launcher=mpi"}, both), JobLauncher::mpi);
  EXPECT_EQ(fb::choose_job_launcher({"fb", "run", "--launcher", "threads"}, both), JobLauncher::torchrun);
  EXPECT_EQ(fb::choose_job_launcher({"fb", "run", "--launcher", "processes"}, env_of({})), JobLauncher::none);
  EXPECT_EQ(fb::choose_job_launcher({"fb", "run", "--launcher", "torchrun"}, env_of({})),
            JobLauncher::torchrun);
  EXPECT_EQ(fb::choose_job_launcher({"fb", "run", "--launcher"}, both), JobLauncher::torchrun);  // no value
  EXPECT_EQ(fb::option_from_args({"fb", "run", "--launcher=slurm", "--launcher", "mpi"}, "--launcher"),
            "slurm");
  EXPECT_FALSE(fb::option_from_args({"--launcher", "mpi"}, "--launcher").has_value());  // [0] is the program
  EXPECT_DOUBLE_EQ(fb::timeout_from_args({"fb", "run", "--timeout", "7.5"}, 120), 7.5);
  EXPECT_DOUBLE_EQ(fb::timeout_from_args({"fb", "run", "--timeout", "x"}, 120), 120);
}

TEST(LaunchEnv, TorchrunBadVariablesAreUsageErrors) {
  const auto torchrun = [](const std::map<std::string, std::string>& vars) {
    return [vars] { fb::tcp_job_env(fb::JobLauncher::torchrun, env_of(vars)); };
  };
  auto bad = kTorchrun;
  bad["RANK"] = "8";
  expect_usage_error(torchrun(bad), "RANK=8 is not a rank of a job of WORLD_SIZE=8 (0-7)");
  bad = kTorchrun;
  bad.erase("MASTER_ADDR");
  expect_usage_error(torchrun(bad), "--launcher torchrun: the variable MASTER_ADDR is not set");
  bad = kTorchrun;
  bad.erase("MASTER_PORT");
  bad["FABRICBENCH_RENDEZVOUS_PORT"] = "40000";  // torchrun itself needs MASTER_PORT
  expect_usage_error(torchrun(bad), "the variable MASTER_PORT is not set");
  bad = kTorchrun;
  bad["WORLD_SIZE"] = "eight";
  EXPECT_THROW(torchrun(bad)(), fb::Error);
  bad = kTorchrun;
  bad["LOCAL_RANK"] = "2";  // LOCAL_WORLD_SIZE 2
  expect_usage_error(torchrun(bad), "LOCAL_RANK=2 is not a rank of a job of LOCAL_WORLD_SIZE=2");
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
  EXPECT_EQ(fb::compress_hostlist({"n10", "n9", "n11"}), "n[9-11]");  // neither padded: Slurm joins them
  EXPECT_EQ(fb::compress_hostlist({"n09", "n10", "n009"}), "n[009,09-10]");  // 009 is not 09
  EXPECT_EQ(fb::compress_hostlist({"login"}), "login");
  EXPECT_EQ(fb::compress_hostlist({"a3", "a3"}), "a3");
  EXPECT_EQ(fb::compress_hostlist({}), "");
  const std::vector<std::string> hosts{"node0998", "node0999", "node1000", "node1002", "x"};
  EXPECT_EQ(fb::compress_hostlist(hosts), "node[0998-1000,1002],x");
  EXPECT_EQ(fb::expand_hostlist(fb::compress_hostlist(hosts)), hosts);
}

// The examples of Slurm's hostlist documentation (Slurm::Hostlist(3pm), slurm_hostlist_create(3)):
// items separated by commas or white space, a prefix followed by numeric ranges in brackets.
TEST(Hostlist, SlurmDocumentationExamples) {
  using V = std::vector<std::string>;
  EXPECT_EQ(fb::expand_hostlist("node1,node[2-5,12]"),
            (V{"node1", "node2", "node3", "node4", "node5", "node12"}));
  EXPECT_EQ(fb::compress_hostlist(fb::expand_hostlist("node1,node[2-5,12]")), "node[1-5,12]");
  EXPECT_EQ(fb::expand_hostlist("tux[0-5,12,20-25]").size(), 13U);
  EXPECT_EQ(fb::compress_hostlist(fb::expand_hostlist("tux[0-5,12,20-25]")), "tux[0-5,12,20-25]");
  EXPECT_EQ(fb::expand_hostlist("linux[1-3,6]"), (V{"linux1", "linux2", "linux3", "linux6"}));
  EXPECT_EQ(fb::expand_hostlist("node21 node[27-28]\nlogin"), (V{"node21", "node27", "node28", "login"}));
  EXPECT_EQ(fb::expand_hostlist("a\tb[1-2]"), (V{"a", "b1", "b2"}));
}

// Mixed prefixes, padding and names without numbers survive the round trip both ways.
TEST(Hostlist, RoundTripsMixedPrefixesAndPadding) {
  const std::vector<std::string> hosts{"node01", "node02", "node03", "node07", "gpu-a1",
                                       "gpu-a2", "login",  "n9",     "n10"};
  const auto line = fb::compress_hostlist(hosts);
  EXPECT_EQ(line, "node[01-03,07],gpu-a[1-2],login,n[9-10]");
  EXPECT_EQ(fb::expand_hostlist(line), hosts);
  for (const char* list : {"node[01-03,07],gpu-a[1-2]", "r1n[01-02],login", "x[7,098-101]"})
    EXPECT_EQ(fb::compress_hostlist(fb::expand_hostlist(list)), list) << list;
}
