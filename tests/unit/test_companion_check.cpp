// A companion NCCL log must be of the run whose output it comes with: real outputs and real logs
// (tests/fixtures/imports, tests/fixtures/nccl), paired right and wrong.
#include <gtest/gtest.h>

#include "comm/nccl_log.hpp"
#include "core/file_io.hpp"
#include "import_fixture.hpp"
#include "ingest/companion_check.hpp"
#include "ingest/paste_lines.hpp"

namespace {

std::string conflict(const std::string& output, const std::string& log_path) {
  const auto r = import_fixture(output);
  const auto text = fb::read_file(log_path);
  return fb::nccl_log_conflict(r, fb::parse_nccl_log(fb::clean_paste(text).nccl_log), text);
}

const std::string kLogs = std::string(FB_FIXTURE_DIR) + "/nccl/";

}  // namespace

// ROCm/rccl#1026's log of 8 ranks on two MI250X hosts under the blog's 8 x MI300X output of one host.
TEST(CompanionCheck, MultiHostMi250xLogUnderAnMi300xOutput) {
  EXPECT_EQ(conflict("rccl-tests-develop-448c4c7-mi300x8-rocm-blog.txt",
                     kLogs + "rccl-mi250x-2nodes-issue1026.log"),
            "its lines are of hosts (g1064, g1072), the output's ranks ran on host (host)");
}

// A file that is no log at all.
TEST(CompanionCheck, AReadmeIsNoNcclLog) {
  EXPECT_EQ(
      conflict("nccl-tests-nccl2.26.2-rtx5090x4-pcie-no-p2p.txt", kImportsDir + "README.md"),
      "it is no NCCL log: not one line of NCCL's own (\"host:pid:tid [dev] NCCL INFO ...\" or \"NCCL version "
      "...\") in it");
}

// RCCL's lines (the blog's rccl-tests output holds RCCL's version line) under an output of NVIDIA GPUs.
TEST(CompanionCheck, RcclLogUnderNvidiaGpus) {
  EXPECT_EQ(conflict("nccl-tests-nccl2.26.2-rtx5090x4-pcie-no-p2p.txt",
                     kImportsDir + "rccl-tests-develop-448c4c7-mi300x8-rocm-blog.txt"),
            "it is RCCL's log (AMD GPUs), the output ran on NVIDIA GPUs");
}

// NCCL 2.19.3's log of 2 H100 over RoCE (NVIDIA/nccl-tests#185) under Lambda's 4 x H100 run of NCCL 2.26.2.
TEST(CompanionCheck, AnotherNcclVersion) {
  EXPECT_EQ(conflict("nccl-tests-nccl2.26.2-h100x4-lambda-ib-disabled.txt",
                     kLogs + "nccl-2.19.3-2xH100-roce-nccl-tests-issue185.log"),
            "it is of NCCL 2.19.3, the output names NCCL 2.26.2");
}

// The communicator's size: the 2 x T4 run's log against a 4-GPU output of the same NCCL.
TEST(CompanionCheck, AnotherCommunicatorSize) {
  const auto t4 = fb::read_file(kImportsDir + "nccl-tests-nccl2.12.7-t4x2-2hosts-efa-aws-do-eks.txt");
  const auto log = fb::parse_nccl_log(fb::clean_paste(t4).nccl_log);
  ASSERT_EQ(log.nranks, 2);
  EXPECT_EQ(log.hosts, (std::set<std::string>{"test-nccl-efa-worker-0", "test-nccl-efa-worker-1"}));
  auto output = import_fixture("nccl-tests-nccl2.26.2-h100x4-lambda-ib-disabled.txt");
  output.host.comm.version = "2.12.7";  // only the size differs
  EXPECT_EQ(fb::nccl_log_conflict(output, log, t4), "its communicator has 2 ranks, the output ran 4");
}

// An output's own NCCL lines agree with it.
TEST(CompanionCheck, TheRunsOwnLinesAgree) {
  for (const char* f : {"nccl-tests-nccl2.26.2-h100x4-lambda-ib-disabled.txt",
                        "nccl-tests-nccl2.12.7-t4x2-2hosts-efa-aws-do-eks.txt",
                        "nccl-tests-nccl2.25.1-rtx5090x2-crash-shared-memory.txt"})
    EXPECT_EQ(conflict(f, kImportsDir + f), "") << f;
}

// Through import: refused as a usage error naming the file and why, taken with force and said so; the
// log's "set by environment" lines are the run's environment.
TEST(CompanionCheck, ImportRefusesUnlessForced) {
  fb::ImportOptions o;
  o.nccl_log = kLogs + "rccl-mi250x-2nodes-issue1026.log";
  try {
    (void)import_fixture("rccl-tests-develop-448c4c7-mi300x8-rocm-blog.txt", o);
    ADD_FAILURE() << "another run's log was taken";
  } catch (const fb::Error& e) {
    EXPECT_EQ(e.code(), fb::ExitCode::usage);
    EXPECT_NE(
        std::string(e.what()).find("rccl-mi250x-2nodes-issue1026.log: not this run's NCCL log: its lines are "
                                   "of hosts (g1064, g1072)"),
        std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("pass --force to use it anyway"), std::string::npos);
  }
  o.force = true;
  const auto r = import_fixture("rccl-tests-develop-448c4c7-mi300x8-rocm-blog.txt", o);
  EXPECT_TRUE(any_contains(r.source->converted, "taken with --force although its lines are of hosts"));
}

// A log of the same machine and NCCL (2 x H200 on host vm, NCCL 2.28.3) is taken, and its
// "NCCL_P2P_DISABLE set by environment to 1" is the run's environment, with where it was read.
TEST(CompanionCheck, ACompanionLogsSettingIsTheRunsEnvironment) {
  fb::ImportOptions o;
  o.nccl_log = kLogs + "fabricbench-probe-2.28.3-p2p-disabled-rank0.log";
  const auto r = fb::load_result_or_output(
      std::string(FB_FIXTURE_DIR) + "/baseline/h200x2-nccl-tests-small-6runs.txt", o);
  ASSERT_TRUE(r.source.has_value());
  EXPECT_EQ(r.env.at("NCCL_P2P_DISABLE"), "1");
  EXPECT_TRUE(any_contains(r.source->env_sources, "fabricbench-probe-2.28.3-p2p-disabled-rank0.log"));
  EXPECT_FALSE(any_contains(r.source->unknown, "the run's environment"));
}
