// Real healthy outputs of machines without a published row (tests/fixtures/imports/README.md,
// "Healthy runs"): the GPU count each one ran, a row's busbw checked by hand against the file, the
// environment and what NCCL's lines in it say.
#include <gtest/gtest.h>

#include "import_fixture.hpp"

// Lambda's 4 x H100: NCCL_DEBUG=INFO on the command, NCCL_IB_DISABLE=1 from NCCL's own line.
TEST(ImportHealthy, LambdaH100x4ReadsTheCommandAndNcclsSettings) {
  const auto r = import_fixture("nccl-tests-nccl2.26.2-h100x4-lambda-ib-disabled.txt");
  EXPECT_EQ(r.env.at("NCCL_DEBUG"), "INFO");
  EXPECT_EQ(r.env.at("NCCL_IB_DISABLE"), "1");
  ASSERT_TRUE(r.source);
  EXPECT_TRUE(any_contains(r.source->env_sources, "line 1: NCCL_DEBUG=INFO (the command line)"));
  EXPECT_TRUE(any_contains(r.source->env_sources,
                           "NCCL's lines in the output: NCCL_IB_DISABLE set by environment to 1"));
  EXPECT_EQ(r.host.comm.version, "2.26.2");
  const auto& run = r.runs.at(0);
  ASSERT_EQ(run.gpus.size(), 4U);
  EXPECT_NEAR(point_at(run, kGiB).busbw_gbps, 237.26 * 1.5, 1e-9);  // 355.89 in the file
  EXPECT_EQ(r.gpus.at(0).name, "NVIDIA H100 80GB HBM3");
}

// all_reduce_bench.py of 2025 on the same node: the Markdown table, its Environment lines.
TEST(ImportHealthy, AllReduceBenchMarkdownTable) {
  const auto r = import_fixture("torch-all_reduce_bench-2025-h100x4-lambda.txt");
  ASSERT_TRUE(r.source);
  EXPECT_EQ(r.source->tool, "ml-engineering all_reduce_bench.py");
  EXPECT_EQ(r.host.comm.version, "2.26.2");  // "nccl=(2, 26, 2)"
  ASSERT_EQ(r.runs.size(), 1U);
  const auto& run = r.runs[0];
  EXPECT_EQ(run.collective, "all_reduce");
  ASSERT_EQ(run.gpus.size(), 4U);
  EXPECT_EQ(r.gpus.at(2).name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(run.points.size(), 20U);  // 32KiB - 16GiB
  const auto& p = point_at(run, kGiB);
  EXPECT_NEAR(p.algbw_gbps, 237.15, 1e-9);
  EXPECT_NEAR(p.busbw_gbps, 237.15 * 1.5, 1e-9);  // 355.72 in the file
  EXPECT_NEAR(p.time_us.median, 1073741824.0 / 237.15e3, 1e-6);
  EXPECT_EQ(point_at(run, 32 * 1024).bytes, 32768U);
  EXPECT_EQ(p.iters_per_batch, 20);
}

TEST(ImportHealthy, A40PairOverTheirNvlinkBridge) {
  const auto r =
      import_fixture("nccl-tests-nccl2.16.2-a40x2-nvlink-llm-insights.txt", with_gpu("NVIDIA A40"));
  EXPECT_EQ(r.env.at("CUDA_VISIBLE_DEVICES"), "0,1");
  EXPECT_EQ(r.runs.at(0).gpus.size(), 2U);
  EXPECT_NEAR(point_at(r.runs[0], 8 * kGiB).busbw_gbps, 47.49, 1e-9);
}

TEST(ImportHealthy, DgxA100FourGpusAndACommandWithoutSettings) {
  const auto r =
      import_fixture("nccl-tests-nccl2.16.2-dgxa100x4-llm-insights.txt", with_gpu("NVIDIA A100-SXM4-80GB"));
  ASSERT_TRUE(r.source);
  EXPECT_TRUE(r.env.empty());
  EXPECT_EQ(r.source->env_sources,
            (std::vector<std::string>{"line 1: the command line, no NCCL_* setting on it"}));
  EXPECT_EQ(r.runs.at(0).gpus.size(), 4U);
  EXPECT_NEAR(point_at(r.runs[0], kGiB).busbw_gbps, 149.89 * 1.5, 1e-9);
}

TEST(ImportHealthy, DgxH100FourGpusTableOnly) {
  const auto r =
      import_fixture("nccl-tests-dgxh100x4-llm-insights.txt", with_gpu("4 x NVIDIA H100 80GB HBM3"));
  EXPECT_NEAR(point_at(r.runs.at(0), 8 * kGiB).busbw_gbps, 247.14 * 1.5, 1e-9);
}

// GeForce cards have no peer-to-peer: 27.3 GB/s over shared memory with the fixed NCCL 2.26.2.
TEST(ImportHealthy, Rtx5090x4WithoutPeerToPeer) {
  const auto r = import_fixture("nccl-tests-nccl2.26.2-rtx5090x4-pcie-no-p2p.txt");
  EXPECT_EQ(r.status, fb::RunStatus::complete);
  ASSERT_EQ(r.runs.at(0).gpus.size(), 4U);
  EXPECT_NEAR(point_at(r.runs[0], 128 * kMiB).busbw_gbps, 18.18 * 1.5, 1e-9);
}

// Two hosts of one T4 each over EFA (aws-ofi-nccl): NCCL's network and the setting it reports.
TEST(ImportHealthy, T4PairAcrossHostsOverEfa) {
  const auto r = import_fixture("nccl-tests-nccl2.12.7-t4x2-2hosts-efa-aws-do-eks.txt");
  const auto& run = r.runs.at(0);
  ASSERT_EQ(run.gpus.size(), 2U);
  EXPECT_EQ(r.gpus[1].host, "test-nccl-efa-worker-1");
  EXPECT_EQ(run.nccl_network, "AWS Libfabric");
  EXPECT_EQ(r.env.at("NCCL_SHM_DISABLE"), "0");
  EXPECT_EQ(r.host.comm.version, "2.12.7");
  EXPECT_NEAR(point_at(run, kGiB).busbw_gbps, 3.11, 1e-9);
}

TEST(ImportHealthy, EfaEnabledRunOfTheSocketFaultsInstances) {
  const auto r = import_fixture("nccl-tests-efa-enabled-2hosts-aws-do-eks.txt", with_gpu("2 x GPU"));
  EXPECT_EQ(r.runs.at(0).nccl_network, "AWS Libfabric");
  EXPECT_NEAR(point_at(r.runs[0], kGiB).busbw_gbps, 2.83, 1e-9);
}

// One row of two p5.48xlarge (16 H100): the collective from the table, NCCL's channel counts.
TEST(ImportHealthy, P5TwoHostsOneRow) {
  const auto r = import_fixture("nccl-tests-p5-h100x16-2hosts-efa-one-row-aws-do-eks.txt",
                                with_gpu("16 x NVIDIA H100 80GB HBM3"));
  const auto& run = r.runs.at(0);
  EXPECT_EQ(run.collective, "all_reduce");
  ASSERT_EQ(run.gpus.size(), 16U);
  EXPECT_EQ(run.nccl_coll_channels, 16);
  EXPECT_EQ(run.nccl_nvls_channels, 16);
  EXPECT_NEAR(point_at(run, 2 * kGiB).busbw_gbps, 234.05 * 1.875, 1e-9);  // 438.85 in the file
}

// Two OpenShift pods of 2 L40S each: every NCCL_* setting of the mpirun line, none of the others.
TEST(ImportHealthy, L40sAcrossTwoPodsReadsMpirunsSettings) {
  const auto r = import_fixture("nccl-tests-nccl2.27.3-l40sx4-2hosts-roce-sriov.txt");
  EXPECT_EQ(r.env, (std::map<std::string, std::string>{{"NCCL_ALGO", "ring"},
                                                       {"NCCL_DEBUG", "VERSION"},
                                                       {"NCCL_IB_DISABLE", "0"},
                                                       {"NCCL_IB_HCA", "mlx5_2,mlx5_8"},
                                                       {"NCCL_NET_GDR_READ", "1"},
                                                       {"NCCL_SOCKET_IFNAME", "net1"}}));
  ASSERT_TRUE(r.source);
  EXPECT_TRUE(any_contains(r.source->env_sources, "line 1: NCCL_IB_DISABLE=0 (mpirun -x)"));
  const auto& run = r.runs.at(0);
  ASSERT_EQ(run.gpus.size(), 4U);  // -np 2 x -g 2, as the rank lines say
  EXPECT_EQ(r.gpus[2].host, "nvidiatools-30-workload");
  EXPECT_EQ(r.host.comm.version, "2.27.3");
  EXPECT_NEAR(point_at(run, 8 * kGiB).busbw_gbps, 6.42 * 1.5, 1e-9);
}

// sendrecv on 8 A100: no header, the command's -g 8.
TEST(ImportHealthy, SendrecvA100x8FromTheCommandLine) {
  const auto r =
      import_fixture("nccl-tests-sendrecv-a100x8-nvlink-li-plus.txt", with_gpu("NVIDIA A100-SXM4"));
  const auto& run = r.runs.at(0);
  EXPECT_EQ(run.collective, "sendrecv");
  ASSERT_EQ(run.gpus.size(), 8U);
  EXPECT_NEAR(point_at(run, kGiB).busbw_gbps, 195.10, 1e-9);
}

// torch-dist-bench.py on 4 x 8 B200: 32 ranks from its opening line.
TEST(ImportHealthy, TorchDistBenchB200x32) {
  const auto r =
      import_fixture("torch-dist-bench-b200x32-4hosts-ml-engineering.txt", with_gpu("NVIDIA B200"));
  ASSERT_TRUE(r.source);
  EXPECT_EQ(r.source->tool, "ml-engineering torch-dist-bench.py");
  const auto& run = r.runs.at(0);
  ASSERT_EQ(run.gpus.size(), 32U);
  EXPECT_NEAR(point_at(run, 16 * kGiB).busbw_gbps, 194.43 * 62 / 32, 1e-9);  // 376.71 in the file
  EXPECT_EQ(run.points.front().iters_per_batch, 20);
}

// all_reduce_bench.py's table pasted under its torchrun command only: all_reduce, 8 ranks from torchrun.
TEST(ImportHealthy, AllReduceBenchTableUnderItsCommand) {
  const auto r =
      import_fixture("torch-all_reduce_bench-2026-h200x8-ml-engineering.txt", with_gpu("NVIDIA H200"));
  const auto& run = r.runs.at(0);
  EXPECT_EQ(run.collective, "all_reduce");
  ASSERT_EQ(run.gpus.size(), 8U);
  EXPECT_NEAR(point_at(run, 16 * kGiB).busbw_gbps, 275.58 * 1.75, 1e-9);  // 482.26 in the file
}
