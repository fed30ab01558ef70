// Real outputs whose source established a fault and its cause (tests/fixtures/imports/README.md,
// "Faults"): what is read from each, the facts the fault shows in (the environment the pasted command
// set, NCCL's transport and network, the tool's own failure line), and the busbw of a row checked by
// hand against the file.
#include <gtest/gtest.h>

#include "import_fixture.hpp"

namespace {

const fb::Run& only_run(const fb::Result& r) {
  EXPECT_EQ(r.runs.size(), 1U);
  return r.runs.at(0);
}

}  // namespace

// DGX A100, 4 GPUs, NCCL_P2P_DISABLE=1 on the command line: 5.20 GB/s where the same GPUs reach 222.
TEST(ImportFaults, DgxA100P2pDisabledReadsTheCommandLinesSetting) {
  const auto r = import_fixture("nccl-tests-nccl2.16.2-dgxa100x4-p2p-disabled-llm-insights.txt",
                                with_gpu("NVIDIA A100-SXM4-80GB"));
  EXPECT_EQ(r.env.at("NCCL_P2P_DISABLE"), "1");
  ASSERT_TRUE(r.source);
  EXPECT_TRUE(any_contains(r.source->env_sources, "line 1: NCCL_P2P_DISABLE=1 (the command line)"));
  EXPECT_FALSE(any_contains(r.source->unknown, "the run's environment"));
  const auto& run = only_run(r);
  EXPECT_EQ(run.collective, "all_reduce");  // the command's all_reduce_perf
  ASSERT_EQ(run.gpus.size(), 4U);           // -g 4 on the command line, no header pasted
  EXPECT_TRUE(
      any_contains(r.source->converted, "4 GPUs from the command line (line 1): -g 4 x -t 1 x one process"));
  // 1 GiB: algbw 3.47 GB/s x 2(4-1)/4 = 5.205 (the file: 5.20).
  EXPECT_NEAR(point_at(run, kGiB).busbw_gbps, 3.47 * 1.5, 1e-9);
  EXPECT_EQ(r.gpus.at(3).name, "NVIDIA A100-SXM4-80GB");
}

// DGX H100, 4 GPUs, NVLink off by the post's method; the command was not pasted: the environment is
// unknown, never "no setting".
TEST(ImportFaults, DgxH100NvlinkDisabledWithoutItsCommandHasAnUnknownEnvironment) {
  const auto r = import_fixture("nccl-tests-dgxh100x4-nvlink-disabled-llm-insights.txt",
                                with_gpu("4 x NVIDIA H100 80GB HBM3"));
  ASSERT_TRUE(r.source);
  EXPECT_TRUE(r.env.empty());
  EXPECT_TRUE(r.source->env_sources.empty());
  EXPECT_TRUE(any_contains(r.source->unknown, "the run's environment (NCCL_* settings): no command line"));
  const auto& run = only_run(r);
  EXPECT_EQ(run.collective, "all_reduce");  // the only collective whose columns and factor on 4 GPUs fit
  EXPECT_EQ(run.gpus.size(), 4U);
  EXPECT_NEAR(point_at(run, kGiB).busbw_gbps, 16.01 * 1.5, 1e-9);  // 24.01 in the file
  EXPECT_NEAR(point_at(run, 8 * kGiB).busbw_gbps, 13.32 * 1.5, 1e-9);
}

// 4 A40 across the sockets with P2P disabled: 1.44 GB/s; algbw printed with two digits is below 1, so
// the time gives it: 1 GiB / 1121937 us.
TEST(ImportFaults, A40AcrossSocketsP2pDisabled) {
  const auto r =
      import_fixture("nccl-tests-nccl2.16.2-a40x4-sys-p2p-disabled-llm-insights.txt", with_gpu("NVIDIA A40"));
  EXPECT_EQ(r.env.at("NCCL_P2P_DISABLE"), "1");
  EXPECT_EQ(r.env.at("CUDA_VISIBLE_DEVICES"), "0,1,6,7");
  const auto& run = only_run(r);
  ASSERT_EQ(run.gpus.size(), 4U);
  EXPECT_NEAR(point_at(run, kGiB).busbw_gbps, 1073741824.0 / 1121937e3 * 1.5, 1e-9);
}

TEST(ImportFaults, A40PairWithinASocketP2pDisabled) {
  const auto r = import_fixture("nccl-tests-nccl2.16.2-a40x2-node-p2p-disabled-llm-insights.txt",
                                with_gpu("NVIDIA A40"));
  EXPECT_EQ(r.env.at("NCCL_P2P_DISABLE"), "1");
  EXPECT_EQ(r.env.at("CUDA_VISIBLE_DEVICES"), "1,2");
  const auto& run = only_run(r);
  ASSERT_EQ(run.gpus.size(), 2U);
  EXPECT_NEAR(point_at(run, kGiB).busbw_gbps, 3.86, 1e-9);  // 2 GPUs: busbw = algbw
  EXPECT_NEAR(point_at(run, 8 * kGiB, true).busbw_gbps, 3.71, 1e-9);
}

// 2 x RTX 5090, NCCL 2.25.1: dies at its first size. The document is a failed run naming the tool's own
// line and NCCL's last warning, with the GPUs the header listed; no row, no run.
TEST(ImportFaults, Rtx5090CrashIsNamedWithTheToolsLine) {
  const auto r = import_fixture("nccl-tests-nccl2.25.1-rtx5090x2-crash-shared-memory.txt");
  EXPECT_EQ(r.status, fb::RunStatus::failed);
  EXPECT_EQ(
      r.failure,
      "nccl-tests failed before its first row: line 72: \"GENOA-06: Test NCCL failure common.cu:392 "
      "'unhandled "
      "cuda error (run with NCCL_DEBUG=INFO for details) / '\"; NCCL's last warning: \"enqueue.cc:1500 NCCL "
      "WARN Cuda failure 1 'invalid argument'\"");
  EXPECT_TRUE(r.runs.empty());
  ASSERT_EQ(r.gpus.size(), 2U);
  EXPECT_EQ(r.gpus[1].name, "NVIDIA GeForce RTX 5090");
  EXPECT_EQ(r.host.comm.version, "2.25.1");  // NCCL's lines in the output
  EXPECT_EQ(r.env.at("NCCL_DEBUG"), "INFO");
  ASSERT_TRUE(r.source);
  EXPECT_FALSE(any_contains(r.source->skipped, "not a row of the table"));
}

// 2 x RX 7900 XTX under RCCL 2.17.1: rccl-tests' header of 2023 ("nThreads: 1 nGpus: 2 nRanks: 1").
TEST(ImportFaults, Rx7900xtxCrashOfRcclTests) {
  const auto r = import_fixture("rccl-tests-rocm5.7-rx7900xtx-x2-crash-igpu.txt");
  EXPECT_EQ(r.status, fb::RunStatus::failed);
  EXPECT_EQ(
      r.failure.find("rccl-tests failed before its first row: line 26: \"catalyst-convoy: Test NCCL failure "
                     "common.cu:1285 'unhandled cuda error'\""),
      0U)
      << r.failure;
  EXPECT_NE(r.failure.find(
                "NCCL's last warning: \"/long_pathname_so_that_rpms_can_package_the_debug_info/src/"
                "extlibs/rccl/build/hipify/src/enqueue.cc:66 NCCL WARN Cuda failure 'invalid kernel file'\""),
            std::string::npos)
      << r.failure;
  ASSERT_EQ(r.gpus.size(), 2U);
  EXPECT_EQ(r.gpus[0].name, "Radeon RX 7900 XTX");
  EXPECT_EQ(r.host.comm.name, "RCCL");
  EXPECT_EQ(r.host.comm.version, "2.17.1");
}

// Four ranks of a Slurm job die at NCCL's initialisation: no header, no rank line, four failure lines.
TEST(ImportFaults, SlurmBindingCrashWithoutAHeader) {
  const auto r = import_fixture("nccl-tests-a100pcie-slurm-per-task-binding-crash.txt");
  EXPECT_EQ(r.status, fb::RunStatus::failed);
  EXPECT_EQ(r.failure,
            "nccl-tests failed before its first row: line 24: \"my-node: Test NCCL failure common.cu:1126 "
            "'unhandled "
            "system error (run with NCCL_DEBUG=INFO for details) / '\" (4 failure lines in all); NCCL's last "
            "warning: "
            "\"misc/nvmlwrap.cc:183 NCCL WARN nvmlDeviceGetHandleByPciBusId() failed: Not Found\"");
  EXPECT_TRUE(r.gpus.empty());
  ASSERT_TRUE(r.source);
  EXPECT_EQ(r.source->tool, "nccl-tests");
}

// Two hosts, EFA left out: NCCL says "Using network Socket"; the GPUs are not named (--gpu gives the count).
TEST(ImportFaults, EfaDisabledRunsOnSockets) {
  const auto r = import_fixture("nccl-tests-efa-disabled-socket-2hosts-aws-do-eks.txt", with_gpu("2 x GPU"));
  const auto& run = only_run(r);
  EXPECT_EQ(run.nccl_network, "Socket");
  ASSERT_EQ(run.gpus.size(), 2U);
  EXPECT_NEAR(point_at(run, kGiB).busbw_gbps, 2.00, 1e-9);
  EXPECT_NEAR(point_at(run, 16 * kMiB).busbw_gbps, 1.85, 1e-9);
}

// ROCm/rccl#1129's run with NCCL_P2P_DISABLE=1 (an earlier fixture): its command names no setting.
TEST(ImportFaults, Mi100P2pDisabledRunsCommandLineIsRead) {
  const auto r = import_fixture("rccl-tests-develop-3f7f785-mi100x2-issue1129.txt");
  ASSERT_TRUE(r.source);
  EXPECT_TRUE(any_contains(r.source->env_sources, "line 1: the command line, no NCCL_* setting on it"));
  EXPECT_EQ(r.runs.at(0).gpus.size(), 2U);
}
