// The pasted command line and the header count the ranks, and the command's settings are the run's
// environment: read from real outputs (tests/fixtures/imports), some with their "# Rank" lines cut as a
// paste may cut them.
#include <gtest/gtest.h>

#include <sstream>

#include "core/file_io.hpp"
#include "import_fixture.hpp"
#include "ingest/command_facts.hpp"
#include "ingest/paste_lines.hpp"

namespace {

std::string without_lines_containing(std::string text, const std::vector<std::string>& parts) {
  std::istringstream in(text);
  std::string out;
  for (std::string line; std::getline(in, line);) {
    const bool drop = std::any_of(parts.begin(), parts.end(), [&line](const std::string& p) {
      return line.find(p) != std::string::npos;
    });
    if (!drop) out += line + "\n";
  }
  return out;
}

fb::CommandFacts facts_of(const std::string& fixture) {
  return fb::read_command_facts(fb::clean_paste(fb::read_file(kImportsDir + fixture)));
}

}  // namespace

// "> mpirun ... \" over five lines (a Markdown quote of a continued command).
TEST(CommandFacts, ContinuedQuotedMpirunLine) {
  const auto f = facts_of("nccl-tests-h100x16-2hosts-gcp-a3mega.txt");
  EXPECT_TRUE(f.launcher);
  EXPECT_EQ(f.processes, 16);
  EXPECT_EQ(f.gpus_per_process, 1);
  EXPECT_EQ(f.test_line, 1);
  EXPECT_TRUE(f.env.empty());  // -x ${HOST_VARS}: no variable the paste shows
  EXPECT_EQ(f.commands, (std::vector<std::string>{"line 1"}));
}

// MPICH's "-env NCCL_DEBUG=VERSION" on the blog's mpirun line.
TEST(CommandFacts, MpichEnvOption) {
  const auto f = facts_of("rccl-tests-develop-448c4c7-mi300x8-rocm-blog.txt");
  EXPECT_EQ(f.env, (std::map<std::string, std::string>{{"NCCL_DEBUG", "VERSION"}}));
  EXPECT_EQ(f.processes, 8);
}

// A prompt before the command ("user@GENOA-06:~/nccl-tests$ ") and a setting before the binary.
TEST(CommandFacts, PromptAndAssignmentBeforeTheBinary) {
  const auto f = facts_of("nccl-tests-nccl2.25.1-rtx5090x2-crash-shared-memory.txt");
  EXPECT_EQ(f.env, (std::map<std::string, std::string>{{"NCCL_DEBUG", "INFO"}}));
  EXPECT_EQ(f.sources, (std::vector<std::string>{"line 1: NCCL_DEBUG=INFO (the command line)"}));
  EXPECT_FALSE(f.launcher);
  EXPECT_EQ(f.gpus_per_process, 2);
}

// "[root@nvidiatools-29-workload ~]# mpirun ... -x NAME=VALUE ...": only the variables the document keeps.
TEST(CommandFacts, MpirunExportsOnlyTheKeptVariables) {
  const auto f = facts_of("nccl-tests-nccl2.27.3-l40sx4-2hosts-roce-sriov.txt");
  EXPECT_EQ(f.env.count("UCX_NET_DEVICES"), 0U);
  EXPECT_EQ(f.env.at("NCCL_IB_HCA"), "mlx5_2,mlx5_8");
  EXPECT_EQ(f.processes, 2);
  EXPECT_EQ(f.gpus_per_process, 2);
}

TEST(CommandFacts, TorchrunProcessesPerNode) {
  const auto f = facts_of("torch-all_reduce_bench-2026-h200x8-ml-engineering.txt");
  EXPECT_TRUE(f.launcher);
  EXPECT_EQ(f.processes, 8);
}

// The blog's MI300X output with ranks 2-7 cut from its "# Rank" lines: its launcher's -np 8 x the header's
// nGpus 1 still counts 8, and busbw is 8 ranks' (algbw x 2*7/8).
TEST(CommandFacts, ElidedRankLinesCountTheHeadersGpus) {
  const auto full = fb::read_file(kImportsDir + "rccl-tests-develop-448c4c7-mi300x8-rocm-blog.txt");
  const auto cut = without_lines_containing(
      full, {"Rank  2 ", "Rank  3 ", "Rank  4 ", "Rank  5 ", "Rank  6 ", "Rank  7 "});
  ASSERT_EQ(std::count(cut.begin(), cut.end(), '\n') + 6, std::count(full.begin(), full.end(), '\n'));
  const auto r = fb::import_text(cut, "mi300x8-cut.txt");
  const auto& run = r.runs.at(0);
  ASSERT_EQ(run.gpus.size(), 8U);
  ASSERT_TRUE(r.source);
  EXPECT_TRUE(
      any_contains(r.source->converted,
                   "8 GPUs from the header's nThread 1 x nGpus 1 x the command line's 8 processes; the paste "
                   "lists 2 \"# Rank\" lines: the others were left out of it"));
  EXPECT_TRUE(any_contains(r.source->converted,
                           "ranks 2-7 not in the paste: taken as the listed ranks' GPU (AMD "
                           "Instinct MI300X), their host unknown"));
  EXPECT_EQ(r.gpus.at(7).name, "AMD Instinct MI300X");
  const auto whole = fb::import_text(full, "mi300x8.txt");
  EXPECT_DOUBLE_EQ(point_at(run, kGiB).busbw_gbps, point_at(whole.runs.at(0), kGiB).busbw_gbps);
}

// One process driving 2 GPUs (-g 2, no launcher) with its rank 1 line cut: nGpus 2 still counts 2.
TEST(CommandFacts, ElidedRankLineOfOneProcess) {
  const auto full = fb::read_file(kImportsDir + "rccl-tests-develop-3f7f785-mi100x2-issue1129.txt");
  const auto r = fb::import_text(without_lines_containing(full, {"Rank  1 "}), "mi100-cut.txt");
  ASSERT_EQ(r.runs.at(0).gpus.size(), 2U);
  EXPECT_EQ(r.gpus.at(1).host, "deep-visionscaper3");  // one process: its host
  EXPECT_NEAR(point_at(r.runs[0], 128 * kMiB).busbw_gbps, 11.01, 1e-9);
}
