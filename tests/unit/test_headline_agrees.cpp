// The headline never disagrees with the verdict, over every result fixture (tests/fixtures/results) and
// every import fixture (tests/fixtures/imports, read as `report` reads them); and issue 49's real outputs
// judged by what their own sources established (tests/fixtures/imports/README.md): each fault WARNING or
// CRITICAL with its signature named, each healthy output of a machine without a published row without a
// warning, and never "Healthy" unless a figure was held against an expectation or a bound.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>

#include "analyse/judge.hpp"
#include "analyse/verdict/headline_figures.hpp"
#include "analyse/verdict/outcome.hpp"
#include "core/error.hpp"
#include "golden.hpp"
#include "import_fixture.hpp"

namespace {

// The outputs that name no GPU (or not their count), with the --gpu their tests give.
const std::map<std::string, std::string>& gpu_flags() {
  static const std::map<std::string, std::string> flags{
      {"nccl-tests-nccl2.16.2-dgxa100x4-p2p-disabled-llm-insights.txt", "NVIDIA A100-SXM4-80GB"},
      {"nccl-tests-dgxh100x4-nvlink-disabled-llm-insights.txt", "4 x NVIDIA H100 80GB HBM3"},
      {"nccl-tests-nccl2.16.2-a40x4-sys-p2p-disabled-llm-insights.txt", "NVIDIA A40"},
      {"nccl-tests-nccl2.16.2-a40x2-node-p2p-disabled-llm-insights.txt", "NVIDIA A40"},
      {"nccl-tests-efa-disabled-socket-2hosts-aws-do-eks.txt", "2 x GPU"},
      {"nccl-tests-efa-enabled-2hosts-aws-do-eks.txt", "2 x GPU"},
      {"nccl-tests-nccl2.16.2-a40x2-nvlink-llm-insights.txt", "NVIDIA A40"},
      {"nccl-tests-nccl2.16.2-dgxa100x4-llm-insights.txt", "NVIDIA A100-SXM4-80GB"},
      {"nccl-tests-dgxh100x4-llm-insights.txt", "4 x NVIDIA H100 80GB HBM3"},
      {"nccl-tests-sendrecv-a100x8-nvlink-li-plus.txt", "NVIDIA A100-SXM4"},
      {"nccl-tests-p5-h100x16-2hosts-efa-one-row-aws-do-eks.txt", "16 x NVIDIA H100 80GB HBM3"},
      {"torch-all_reduce_bench-2026-h200x8-ml-engineering.txt", "NVIDIA H200"},
      {"torch-dist-bench-b200x32-4hosts-ml-engineering.txt", "NVIDIA B200"},
      {"torch-all_reduce_bench-h100x16-2hosts-gke-a3mega.txt", "16 x NVIDIA H100 80GB HBM3"},
      {"synthesised-torch-allreduce-h200x2-1GiB.txt", "2 x NVIDIA H200"},
      {"synthesised-rccl-tests-csv-2gpus-1GiB.csv", "NVIDIA H200"},
  };
  return flags;
}

fb::Result judged_import(const std::string& name) {
  const auto it = gpu_flags().find(name);
  auto r = it == gpu_flags().end() ? import_fixture(name) : import_fixture(name, with_gpu(it->second));
  fb::judge(r);
  return r;
}

// The headline's first words for each key: what the verdict's status says, in words.
void expect_agrees(const fb::Result& r, const std::string& what) {
  ASSERT_TRUE(r.verdict.has_value()) << what;
  const auto o = fb::headline_outcome(r);
  EXPECT_TRUE(fb::outcome_agrees(o.key, r.verdict->status))
      << what << ": " << o.key << " under " << r.verdict->status;
  EXPECT_EQ(r.verdict->headline, o.words) << what;
  EXPECT_EQ(r.verdict->outcome, o.key) << what;
  const std::map<std::string, std::string> first{{"errors", "Errors ("},       {"warnings", "Warnings ("},
                                                 {"incomplete", "Not judged"}, {"healthy", "Healthy"},
                                                 {"unmeasured", "No problem"}, {"failed", "The run failed"},
                                                 {"refused", "Refused"},       {"running", "In progress"}};
  EXPECT_TRUE(o.words.starts_with(first.at(o.key))) << what << ": " << o.words;
  const bool passed =
      r.verdict->status == fb::CheckStatus::pass || r.verdict->status == fb::CheckStatus::info;
  if (o.words.starts_with("Healthy")) EXPECT_TRUE(passed) << what << ": " << o.words;
}

bool has_signature(const fb::Result& r, const std::string& code) {
  return std::any_of(r.findings.begin(), r.findings.end(), [&](const fb::Finding& f) {
    return f.code == code && f.severity >= fb::Severity::warning;
  });
}

}  // namespace

TEST(HeadlineAgrees, EveryResultFixture) {
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(std::string(FB_FIXTURE_DIR) + "/results")) {
    if (e.path().extension() != ".json") continue;
    auto r = result_fixture(e.path().filename().string());
    fb::judge(r);
    expect_agrees(r, e.path().filename().string());
    ++n;
  }
  EXPECT_GE(n, 20);
}

TEST(HeadlineAgrees, EveryImportFixture) {
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(kImportsDir)) {
    const auto name = e.path().filename().string();
    if (name == "README.md") continue;
    expect_agrees(judged_import(name), name);
    ++n;
  }
  EXPECT_GE(n, 30);
}

// Issue 49's faults (tests/fixtures/imports/README.md, "Faults"): each WARNING or CRITICAL, its signature
// named by the finding that says it.
TEST(HeadlineAgrees, EachRealFaultIsJudgedWithItsSignature) {
  const std::vector<std::pair<std::string, std::string>> faults{
      {"nccl-tests-nccl2.16.2-dgxa100x4-p2p-disabled-llm-insights.txt", "SIGNATURE_HOST_STAGED"},
      {"nccl-tests-dgxh100x4-nvlink-disabled-llm-insights.txt", "SIGNATURE_HOST_STAGED"},
      {"nccl-tests-nccl2.16.2-a40x4-sys-p2p-disabled-llm-insights.txt", "SIGNATURE_HOST_STAGED"},
      {"nccl-tests-nccl2.16.2-a40x2-node-p2p-disabled-llm-insights.txt", "SIGNATURE_HOST_STAGED"},
      {"nccl-tests-nccl2.25.1-rtx5090x2-crash-shared-memory.txt", "RUN_FAILED"},
      {"rccl-tests-rocm5.7-rx7900xtx-x2-crash-igpu.txt", "RUN_FAILED"},
      {"nccl-tests-a100pcie-slurm-per-task-binding-crash.txt", "RUN_FAILED"},
      {"nccl-tests-efa-disabled-socket-2hosts-aws-do-eks.txt", "NET_SOCKET"},
  };
  for (const auto& [name, code] : faults) {
    const auto r = judged_import(name);
    EXPECT_GE(r.verdict->status, fb::CheckStatus::warning) << name << ": " << r.verdict->headline;
    EXPECT_TRUE(has_signature(r, code)) << name << ": no " << code;
  }
  // Where the pasted command set the cause, the signature names it.
  const auto p2p = judged_import("nccl-tests-nccl2.16.2-dgxa100x4-p2p-disabled-llm-insights.txt");
  const auto it = std::find_if(p2p.findings.begin(), p2p.findings.end(),
                               [](const fb::Finding& f) { return f.code == "SIGNATURE_HOST_STAGED"; });
  ASSERT_NE(it, p2p.findings.end());
  EXPECT_NE(it->evidence.find("line 1: NCCL_P2P_DISABLE=1 (the command line) turns peer-to-peer off"),
            std::string::npos)
      << it->evidence;
}

// Issue 49's healthy outputs of machines without a published row: no warning, and "Healthy" only where a
// figure was held against an expectation or a bound (an import's host is never read, so none is).
TEST(HeadlineAgrees, EachRealHealthyOutputRaisesNoWarning) {
  const std::vector<std::string> healthy{
      "nccl-tests-nccl2.26.2-h100x4-lambda-ib-disabled.txt",
      "torch-all_reduce_bench-2025-h100x4-lambda.txt",
      "nccl-tests-nccl2.16.2-a40x2-nvlink-llm-insights.txt",
      "nccl-tests-nccl2.16.2-dgxa100x4-llm-insights.txt",
      "nccl-tests-dgxh100x4-llm-insights.txt",
      "nccl-tests-nccl2.26.2-rtx5090x4-pcie-no-p2p.txt",
      "nccl-tests-nccl2.12.7-t4x2-2hosts-efa-aws-do-eks.txt",
      "nccl-tests-efa-enabled-2hosts-aws-do-eks.txt",
      "nccl-tests-p5-h100x16-2hosts-efa-one-row-aws-do-eks.txt",
      "nccl-tests-nccl2.27.3-l40sx4-2hosts-roce-sriov.txt",
      "nccl-tests-sendrecv-a100x8-nvlink-li-plus.txt",
      "torch-dist-bench-b200x32-4hosts-ml-engineering.txt",
  };
  int bounded = 0;
  for (const auto& name : healthy) {
    const auto r = judged_import(name);
    for (const auto& f : r.findings) EXPECT_LT(f.severity, fb::Severity::warning) << name << ": " << f.code;
    const auto figures = fb::headline_figures(r);
    const bool held = std::any_of(figures.begin(), figures.end(),
                                  [](const fb::HeadlineFigure& h) { return h.reference() > 0; });
    bounded += held ? 1 : 0;
    if (r.verdict->headline.starts_with("Healthy")) EXPECT_TRUE(held) << name;
    EXPECT_EQ(r.verdict->status, fb::CheckStatus::unknown) << name << ": " << r.verdict->headline;
  }
  EXPECT_GE(bounded, 8);  // most are held against a bound their hardware gives
}

// ROCm/rccl#1129's run with NCCL_P2P_DISABLE=1, whose paste shows neither the setting nor the topology:
// 2 x MI100 (Infinity Fabric bridges only where fitted) at 11.0 GB/s is above what staging through host
// memory gives a healthy run, so no fault can be named from the output alone; it is never "Healthy", and
// the headline names what was not read (NCCL's transports, the topology) and the flags that would give it.
TEST(HeadlineAgrees, AFaultWhoseCauseIsNotInThePasteIsNeverHealthy) {
  const auto r = judged_import("rccl-tests-develop-3f7f785-mi100x2-issue1129.txt");
  EXPECT_EQ(r.verdict->status, fb::CheckStatus::unknown) << r.verdict->headline;
  EXPECT_TRUE(r.verdict->headline.starts_with("Not judged in full")) << r.verdict->headline;
  for (const char* said : {"transports (--nccl-log FILE)", "topology (--topo FILE)"})
    EXPECT_NE(r.verdict->headline.find(said), std::string::npos) << said << ": " << r.verdict->headline;
}
