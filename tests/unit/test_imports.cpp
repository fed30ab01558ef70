// Other tools' outputs read into the result document (src/ingest/), against real captured outputs
// (tests/fixtures/imports/README.md names each one's source) and golden documents
// (tests/golden/imports/; FB_UPDATE_GOLDEN=1 ./unit_tests --gtest_filter='Imports.*' rewrites them:
// review the diff).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "core/error.hpp"
#include "core/file_io.hpp"
#include "every_field_result.hpp"
#include "golden.hpp"
#include "ingest/import_file.hpp"
#include "model/result_json.hpp"

namespace {

const std::string kImports = std::string(FB_FIXTURE_DIR) + "/imports/";
const std::string kH200Interleaved =
    std::string(FB_FIXTURE_DIR) + "/nccl/nccl-2.28.3-all_reduce-1GiB-2xH200-INFO-INIT-GRAPH-TUNING.log";
const std::string kH200SixRuns = std::string(FB_FIXTURE_DIR) + "/baseline/h200x2-nccl-tests-small-6runs.txt";

fb::Result import(const std::string& path, const fb::ImportOptions& o = {}) {
  return fb::load_result_or_output(path, o);
}

const fb::Point& point(const fb::Run& run, std::uint64_t bytes, bool in_place = false) {
  for (const auto& p : run.points)
    if (p.bytes == bytes && p.in_place == in_place) return p;
  throw std::runtime_error("no point of " + std::to_string(bytes) + " B");
}

bool has(const std::vector<std::string>& list, const std::string& part) {
  for (const auto& s : list)
    if (s.find(part) != std::string::npos) return true;
  return false;
}

// The document as JSON with what changes from build to build (the writing tool's version) blanked
// and the file named without its folder.
std::string golden_text(fb::Result r) {
  r.tool = {"<version>", "<git>"};
  r.source->file = r.source->file.substr(r.source->file.find_last_of('/') + 1);  // not this checkout's path
  return nlohmann::json(r).dump(1) + "\n";
}

}  // namespace

// GCP a3-mega, 2 hosts x 8 H100, nccl-tests of 2024-25 (no version line; domain:bus:device ids).
TEST(Imports, NcclTestsSixteenH100OnTwoHosts) {
  const auto r = import(kImports + "nccl-tests-h100x16-2hosts-gcp-a3mega.txt");
  ASSERT_TRUE(r.source);
  EXPECT_EQ(r.source->tool, "nccl-tests");
  EXPECT_EQ(r.source->version, "");
  ASSERT_EQ(r.gpus.size(), 16U);
  EXPECT_EQ(r.gpus[8].host, "ztan-mig-gq73");
  EXPECT_EQ(r.gpus[8].index, 0);
  EXPECT_EQ(r.gpus[8].rank, 8);
  EXPECT_EQ(r.gpus[3].pci_bus_id, "0000:0c:00.0");
  EXPECT_EQ(r.gpus[0].name, "NVIDIA H100 80GB HBM3");
  ASSERT_EQ(r.runs.size(), 1U);
  const auto& run = r.runs[0];
  EXPECT_EQ(run.collective, "all_reduce");  // from the mpirun line's all_reduce_perf
  EXPECT_EQ(run.points.size(), 62U);
  // 180.71 GB/s x 2(16-1)/16: the file's 338.82 within its rounding.
  EXPECT_NEAR(point(run, 8589934592).busbw_gbps, 180.71 * 30 / 16, 1e-9);
  EXPECT_NEAR(point(run, 8589934592, true).time_us.median, 47743, 1e-9);
  EXPECT_EQ(point(run, 8589934592).wrong, 0);
  // 8 B in 135.8 us prints algbw 0.00: size over time instead.
  EXPECT_NEAR(point(run, 8).algbw_gbps, 8 / 135.8e3, 1e-12);
  EXPECT_EQ(point(run, 8).iters_per_batch, 20);
  EXPECT_TRUE(has(r.source->unknown, "pass --nccl-log"));
  EXPECT_TRUE(has(r.source->unknown, "pass --topo"));
  expect_golden("imports/h100x16-a3mega.json", golden_text(r));
}

// CSCS Alps, 2 hosts x 1 GH200 under srun, nccl-tests 2.18.2 with NCCL 2.30.7.
TEST(Imports, NcclTests2182GraceHopperAcrossHosts) {
  const auto r = import(kImports + "nccl-tests-2.18.2-gh200x2-2hosts-cscs-alps.txt");
  EXPECT_EQ(r.source->version, "2.18.2");
  EXPECT_EQ(r.host.comm.name, "NCCL");
  EXPECT_EQ(r.host.comm.version, "2.30.7");
  EXPECT_EQ(r.host.comm.version_code, 23007);
  ASSERT_EQ(r.gpus.size(), 2U);
  EXPECT_EQ(r.gpus[1].host, "nid007109");
  EXPECT_EQ(r.gpus[1].pci_bus_id, "0009:01:00.0");
  EXPECT_EQ(r.runs[0].gpus, (std::vector<int>{0, 0}));
  EXPECT_EQ(r.runs[0].points.size(), 16U);
  EXPECT_NEAR(point(r.runs[0], 134217728).busbw_gbps, 22.86, 1e-9);  // 2 GPUs: bus factor 1
  expect_golden("imports/gh200x2-cscs.json", golden_text(r));
}

// The oldest layout (no Group, no root, a largest-error column), with an NCCL line in the table and
// no name for its test: all_reduce is the only reducing collective whose factor on 4 GPUs is 1.5.
TEST(Imports, OldestLayoutInfersItsCollective) {
  const auto r = import(kImports + "nccl-tests-2017-layout-k80x4-azureml.txt");
  ASSERT_EQ(r.runs.size(), 1U);
  EXPECT_EQ(r.runs[0].collective, "all_reduce");
  EXPECT_TRUE(has(r.source->converted, "the collective, all_reduce, from the table"));
  EXPECT_EQ(r.runs[0].points.size(), 14U);
  EXPECT_EQ(point(r.runs[0], 33554432).wrong, -1);  // "2e-07" is a largest difference, not a count
  EXPECT_EQ(r.gpus[0].pci_bus_id, "");              // "[0x00]": the bus alone
  EXPECT_EQ(r.gpus[0].name, "Tesla K80");
  EXPECT_TRUE(r.source->skipped.empty());
  expect_golden("imports/k80x4-oldest-layout.json", golden_text(r));
}

// rccl-tests (its own version line, full bus ids), 2 x MI100, collective from the command line.
TEST(Imports, RcclTestsMi100) {
  const auto r = import(kImports + "rccl-tests-develop-3f7f785-mi100x2-issue1129.txt");
  EXPECT_EQ(r.source->tool, "rccl-tests");
  EXPECT_EQ(r.source->version, "develop:3f7f785");
  EXPECT_EQ(r.host.comm.name, "RCCL");
  EXPECT_EQ(r.gpus[0].pci_bus_id, "0000:2f:00.0");
  EXPECT_EQ(r.runs[0].collective, "all_reduce");
  EXPECT_EQ(r.runs[0].points.size(), 50U);
  EXPECT_NEAR(point(r.runs[0], 134217728).busbw_gbps, 11.01, 1e-9);
  expect_golden("imports/mi100x2-rccl-tests.json", golden_text(r));
}

// The 2 x H200 capture: nccl-tests 2.19.6 with NCCL's INFO lines in the same stream, one of which
// cut the 1 GiB row in three at the tool's print calls: joined back, and NCCL's lines read as its log.
TEST(Imports, NcclLinesInsideTheTableAreItsLog) {
  const auto r = import(kH200Interleaved);
  EXPECT_EQ(r.source->version, "2.19.6");
  ASSERT_EQ(r.runs.size(), 1U);
  ASSERT_EQ(r.runs[0].points.size(), 2U);
  EXPECT_NEAR(point(r.runs[0], 1073741824).busbw_gbps, 325.12, 1e-9);
  EXPECT_NEAR(point(r.runs[0], 1073741824, true).time_us.median, 3277.22, 1e-9);
  EXPECT_EQ(point(r.runs[0], 1073741824).nccl_algo, "RING");
  EXPECT_EQ(point(r.runs[0], 1073741824).nccl_proto, "SIMPLE");
  EXPECT_EQ(r.host.comm.version, "2.28.9");  // NCCL's version line beats nccl-library=22809 alike
  EXPECT_FALSE(r.runs[0].nccl_transports.empty());
  EXPECT_TRUE(has(r.source->converted, "NCCL's lines in the output itself"));
  EXPECT_TRUE(r.source->skipped.empty());
  expect_golden("imports/h200x2-1GiB-interleaved.json", golden_text(r));
}

// Six tests in one file, each its sweep five times over (45 rows): six runs; "N/A" in #wrong is "not
// checked".
TEST(Imports, SeveralTestsInOneFile) {
  const auto r = import(kH200SixRuns);
  ASSERT_EQ(r.runs.size(), 6U);
  for (const auto& run : r.runs) EXPECT_EQ(run.points.size(), 90U);
  EXPECT_EQ(point(r.runs[0], 8).wrong, -1);
  EXPECT_EQ(r.host.comm.version, "2.28.3");
  EXPECT_EQ(r.gpus.size(), 2U);  // the same two GPUs in every test
}

// 8 x MI300X from AMD's blog (mi300x-rccl-xgmi): rccl-tests' header of RCCL 2.22 ("RCCL version :",
// "HIP version", "ROCm version", "Hostname", "Librccl path" between the devices and the table) and
// a '#' comment before the mpirun line that names the test.
TEST(Imports, RcclTestsMi300xWithRcclVersionLines) {
  const auto r = import(kImports + "rccl-tests-develop-448c4c7-mi300x8-rocm-blog.txt");
  EXPECT_EQ(r.source->tool, "rccl-tests");
  EXPECT_EQ(r.source->version, "develop:448c4c7");
  EXPECT_EQ(r.host.comm.name, "RCCL");
  EXPECT_EQ(r.host.comm.version, "2.22.3");  // "RCCL version : 2.22.3-develop:f5b15f2"
  ASSERT_EQ(r.gpus.size(), 8U);
  EXPECT_EQ(r.gpus[7].pci_bus_id, "0000:df:00.0");
  EXPECT_EQ(r.gpus[7].name, "AMD Instinct MI300X");
  ASSERT_EQ(r.runs.size(), 1U);
  EXPECT_EQ(r.runs[0].collective, "all_reduce");
  EXPECT_FALSE(has(r.source->converted, "the collective"));  // named by the mpirun line
  EXPECT_EQ(r.runs[0].points.size(), 64U);                   // 8 B - 16 GiB, both variants
  EXPECT_NEAR(point(r.runs[0], 17179869184).busbw_gbps, 182.27 * 14 / 8, 1e-9);  // printed 318.98
  // 4 MiB in place took 129.0 us (32.52 GB/s) against 51.72 out of place: slow, not damaged: kept.
  EXPECT_NEAR(point(r.runs[0], 4194304, true).time_us.median, 129.0, 1e-9);
  EXPECT_TRUE(r.source->skipped.empty());
  expect_golden("imports/mi300x8-rocm-blog.json", golden_text(r));
}

// 8 x MI300X in one Kubernetes pod (AMD AAC8), one process per GPU: the pod's name as the host,
// "[0000:05:00]" as the bus id, no RCCL version line.
TEST(Imports, RcclTestsMi300xInAPod) {
  const auto r = import(kImports + "rccl-tests-develop-a7809b3-mi300x8-aac8-k8s.txt");
  EXPECT_EQ(r.source->version, "develop:a7809b3");
  EXPECT_EQ(r.host.comm.version, "");
  ASSERT_EQ(r.gpus.size(), 8U);
  EXPECT_EQ(r.gpus[1].host, "1942ef50-8240-449e-82ca-4ce7993f70b4-78bfb5d4f4-4z9xh");
  EXPECT_EQ(r.gpus[1].pci_bus_id, "0000:25:00.0");
  EXPECT_EQ(r.runs[0].points.size(), 62U);                                    // 8 B - 8 GiB
  EXPECT_NEAR(point(r.runs[0], 8589934592).busbw_gbps, 180.40 * 1.75, 1e-9);  // printed 315.69
  EXPECT_NEAR(point(r.runs[0], 8589934592, true).time_us.median, 47584, 1e-9);
  EXPECT_TRUE(r.source->skipped.empty());
  expect_golden("imports/mi300x8-aac8-k8s.json", golden_text(r));
}

// 2 hosts x 8 MI300X (AMD AAC10, Slurm, mpirun -np 16): ranks 8-15 on the second host, the test
// named by the last line of a command continued over four lines.
TEST(Imports, RcclTestsMi300xOnTwoHosts) {
  const auto r = import(kImports + "rccl-tests-develop-448c4c7-mi300x16-2hosts-aac10.txt");
  EXPECT_EQ(r.host.comm.version, "2.22.3");  // "RCCL version : 2.22.3-HEAD:7d8d67c"
  ASSERT_EQ(r.gpus.size(), 16U);
  EXPECT_EQ(r.gpus[8].host, "gpu-56");
  EXPECT_EQ(r.gpus[8].index, 0);
  EXPECT_EQ(r.gpus[8].rank, 8);
  EXPECT_EQ(r.gpus[15].pci_bus_id, "0000:e5:00.0");
  EXPECT_EQ(r.runs[0].collective, "all_reduce");
  EXPECT_FALSE(has(r.source->converted, "the collective"));
  EXPECT_EQ(r.runs[0].points.size(), 64U);
  EXPECT_NEAR(point(r.runs[0], 17179869184).busbw_gbps, 190.64 * 30 / 16, 1e-9);  // printed 357.46
  EXPECT_NEAR(point(r.runs[0], 8).time_us.median, 256.5, 1e-9);
  EXPECT_TRUE(r.source->skipped.empty());
  expect_golden("imports/mi300x16-2hosts-aac10.json", golden_text(r));
}

// nccl-tests of 2019 with NCCL 2.4.2 on 4 x V100 PCIe (University of Sheffield's Bessemer docs): the
// "error" column, "[0x3d]" bus numbers, every line indented by three spaces (an RST literal block).
TEST(Imports, NcclTests2019LayoutIndented) {
  const auto r = import(kImports + "nccl-tests-2019-nccl2.4.2-v100x4-sheffield-bessemer.txt");
  EXPECT_EQ(r.source->tool, "nccl-tests");
  EXPECT_EQ(r.source->version, "");
  ASSERT_EQ(r.gpus.size(), 4U);
  EXPECT_EQ(r.gpus[2].name, "Tesla V100-PCIE-32GB");
  EXPECT_EQ(r.gpus[2].pci_bus_id, "");
  EXPECT_EQ(r.host.hostname, "bessemer-node026");
  ASSERT_EQ(r.runs.size(), 1U);
  EXPECT_EQ(r.runs[0].collective, "all_reduce");  // the only reducing collective of factor 1.5 on 4
  EXPECT_TRUE(has(r.source->converted, "the collective, all_reduce, from the table"));
  EXPECT_EQ(r.runs[0].points.size(), 50U);                                // 8 B - 128 MiB
  EXPECT_NEAR(point(r.runs[0], 134217728).busbw_gbps, 7.46 * 1.5, 1e-9);  // printed 11.18
  EXPECT_NEAR(point(r.runs[0], 16).time_us.median, 183.5, 1e-9);
  EXPECT_EQ(point(r.runs[0], 134217728).wrong, -1);  // "2e-07": a largest difference, not a count
  EXPECT_TRUE(r.source->skipped.empty());
  expect_golden("imports/v100x4-2019-layout.json", golden_text(r));
}

// ml-engineering's all_reduce_bench.py on 2 x 8 H100 (GKE a3-mega), its lines behind torchrun
// --tee's "[host:0]:" prefix: 4.0 GB = 4e9 B over algbw 176.590 GB/s is 22651.34 us.
TEST(Imports, TorchAllReduceBenchBehindTorchrunPrefix) {
  const auto r = import(kImports + "torch-all_reduce_bench-h100x16-2hosts-gke-a3mega.txt",
                        {"", "", "16 x NVIDIA H100 80GB HBM3", ""});
  EXPECT_EQ(r.source->tool, "ml-engineering all_reduce_bench.py");
  ASSERT_EQ(r.runs.size(), 1U);
  ASSERT_EQ(r.runs[0].points.size(), 1U);
  const auto& p = r.runs[0].points[0];
  EXPECT_EQ(p.bytes, 4000000000U);
  EXPECT_EQ(p.count, 1000000000U);
  EXPECT_NEAR(p.algbw_gbps, 176.590, 1e-9);
  EXPECT_NEAR(p.busbw_gbps, 176.590 * 30 / 16, 1e-9);  // printed 331.106
  EXPECT_NEAR(p.time_us.median, 4e9 / 176.590e3, 1e-6);
  EXPECT_EQ(p.iters_per_batch, 5);
  EXPECT_EQ(r.gpus.size(), 16U);
  EXPECT_TRUE(has(r.source->converted, "the time of one all_reduce, 22651.34 us, is the payload over"));
  EXPECT_TRUE(has(r.source->unknown, "the hosts: the script does not say"));
  EXPECT_TRUE(r.source->skipped.empty());
  expect_golden("imports/h100x16-all_reduce_bench.json", golden_text(r));
}

// The document validates against docs/result.schema.json's `source` member (tests/schema checks
// the saved goldens); here: it round-trips.
TEST(Imports, SourceRoundTrips) {
  const auto r = import(kImports + "nccl-tests-2.18.2-gh200x2-2hosts-cscs-alps.txt");
  const auto back = fb::parse_result(nlohmann::json(r).dump());
  ASSERT_TRUE(back.source);
  EXPECT_EQ(back.source->file, r.source->file);
  EXPECT_EQ(back.source->unknown, r.source->unknown);
}

// `source` (1.4) of the hand-written document of every member arrives in its fields.
TEST(Imports, SourceMemberOfEveryFieldDocument) {
  const auto r = fb::parse_result(kEveryFieldJson);
  ASSERT_TRUE(r.source);
  EXPECT_EQ(r.source->tool, "nccl-tests");
  EXPECT_EQ(r.source->version, "2.19.6");
  EXPECT_EQ(r.source->file, "ar.txt");
  EXPECT_EQ(r.source->converted, (std::vector<std::string>{"busbw recomputed"}));
  EXPECT_EQ(r.source->skipped, (std::vector<std::string>{"line 56: a damaged row"}));
  EXPECT_EQ(r.source->unknown, (std::vector<std::string>{"the topology: pass --topo FILE"}));
  EXPECT_EQ(r.source->env_sources,
            (std::vector<std::string>{"line 1: NCCL_P2P_DISABLE=1 on the command line"}));
}

// A 1.4 document's source has no env_sources (added in 1.5): read as empty, the environment unknown.
TEST(Imports, SourceOfA14DocumentReadsWithoutEnvSources) {
  auto j = nlohmann::json::parse(kEveryFieldJson);
  j["schema"] = "fabricbench.result/1.4";
  j["source"].erase("env_sources");
  const auto r = fb::parse_result(j.dump());
  ASSERT_TRUE(r.source);
  EXPECT_TRUE(r.source->env_sources.empty());
  EXPECT_EQ(r.source->tool, "nccl-tests");
}
