// NCCL's log parsed from real captured logs; winners, the forced-beats-default rule and the
// tuner CSV against hand-made sweeps.
#include <gtest/gtest.h>

#include <fstream>
#include <limits>
#include <sstream>

#include "analyse/run/algo_selection.hpp"
#include "bench/collective_spec.hpp"
#include "bench/nccl_setup.hpp"
#include "comm/nccl_log.hpp"
#include "core/error.hpp"

namespace {

std::string read(const std::string& name) {
  std::ifstream in(std::string(FB_FIXTURE_DIR) + "/nccl/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

fb::Point point(std::uint64_t bytes, double busbw, double ci = 0.005) {
  fb::Point p;
  p.bytes = bytes;
  p.busbw_gbps = busbw;
  p.time_us.median_ci = ci;
  return p;
}

}  // namespace

TEST(NcclLog, TwoProcessRankZeroLog) {
  const auto s =
      fb::parse_nccl_log(read("nccl-2.28.3-all_reduce-8B-1GiB-2procs-rank0-INFO-INIT-GRAPH-TUNING.log"));
  EXPECT_EQ(s.version, "2.28.3");
  EXPECT_EQ(s.coll_channels, 24);
  EXPECT_EQ(s.nvls_channels, 0);
  EXPECT_EQ(s.p2p_channels, 32);
  EXPECT_EQ(s.transports, (std::set<std::string>{"P2P/CUMEM"}));
  const auto& ar = s.choices.at("AllReduce");
  // Ring/LL up to 1 MiB, Ring/Simple from 2 MiB (REFERENCE.md, the TUNING log).
  EXPECT_EQ(ar.at(8).algo, "RING");
  EXPECT_EQ(ar.at(8).proto, "LL");
  EXPECT_EQ(ar.at(8).channels, 1);
  EXPECT_EQ(ar.at(32768).channels, 4);
  EXPECT_EQ(ar.at(1048576).proto, "LL");
  EXPECT_EQ(ar.at(2097152).proto, "SIMPLE");
  EXPECT_EQ(ar.at(1073741824).algo, "RING");
  EXPECT_EQ(ar.at(1073741824).channels, 24);
}

TEST(NcclLog, SingleProcessLogWithInterleavedTableLines) {
  const auto s = fb::parse_nccl_log(read("nccl-2.28.3-all_reduce-1GiB-2xH200-INFO-INIT-GRAPH-TUNING.log"));
  EXPECT_EQ(s.version, "2.28.9");  // nccl-tests linked PyTorch's NCCL there
  EXPECT_EQ(s.transports, (std::set<std::string>{"P2P/direct pointer"}));
  EXPECT_EQ(s.choices.at("AllReduce").at(1073741824).proto, "SIMPLE");
}

TEST(NcclLog, RankWithoutTuningLinesMergesIntoRankZero) {
  auto s = fb::parse_nccl_log(read("nccl-2.28.3-all_reduce-8B-1GiB-2procs-rank1-INFO-INIT-GRAPH-TUNING.log"));
  EXPECT_TRUE(s.choices.empty());
  fb::merge_nccl_logs(
      s, fb::parse_nccl_log(read("nccl-2.28.3-all_reduce-8B-1GiB-2procs-rank0-INFO-INIT-GRAPH-TUNING.log")));
  EXPECT_FALSE(s.choices.at("AllReduce").empty());
}

TEST(NcclLog, TheTableNamesOperationsAsNcclLogsThem) {
  const auto s =
      fb::parse_nccl_log(read("nccl-2.28.3-all_reduce-8B-1GiB-2procs-rank0-INFO-INIT-GRAPH-TUNING.log"));
  EXPECT_EQ(s.choices.count(std::string(fb::collective("all_reduce").nccl_log_name)), 1u);
  EXPECT_EQ(fb::collective("reduce_scatter").nccl_log_name, "ReduceScatter");
  EXPECT_EQ(fb::collective("alltoall").nccl_log_name, "AlltoAll");
}

TEST(Algos, WinnersPerSize) {
  std::vector<fb::AlgoConfig> c{{"", "", {point(1 << 20, 40), point(1 << 30, 331)}, ""},
                                {"Ring", "LL", {point(1 << 20, 48), point(1 << 30, 124)}, ""},
                                {"Tree", "Simple", {point(1 << 20, 30), point(1 << 30, 343)}, ""}};
  const auto w = fb::winners(c);
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(w[0].config, 1u);
  EXPECT_EQ(w[1].config, 2u);
  EXPECT_EQ(c[2].label(), "Tree/Simple");
  EXPECT_EQ(c[0].label(), "default");
}

TEST(Algos, ForcedChoiceMustBeatDefaultBeyondNoise) {
  std::vector<fb::AlgoConfig> c{
      {"", "", {point(1 << 30, 331, 0.002), point(4ULL << 30, 346, 0.002)}, ""},
      {"Tree", "Simple", {point(1 << 30, 343, 0.002), point(4ULL << 30, 348, 0.002)}, ""}};
  auto f = fb::forced_beats_default(c, 0.01, 16 << 20);
  ASSERT_EQ(f.size(), 1u);                       // +3.6% at 1 GiB; +0.6% at 4 GiB is noise
  EXPECT_EQ(f[0].severity, fb::Severity::info);  // a few percent: a hint
  EXPECT_NE(f[0].evidence.find("NCCL_ALGO=Tree NCCL_PROTO=Simple reaches 343.0 GB/s"), std::string::npos)
      << f[0].evidence;
  c[1].points[0].time_us.median_ci = 0.04;  // noisy: +-4.2% together, the +3.6% gain is not beyond it
  EXPECT_TRUE(fb::forced_beats_default(c, 0.01, 16 << 20).empty());
}

// NCCL's recorded choice (RING/LL) forced again is the same configuration: never compared.
TEST(Algos, NcclsOwnChoiceIsNotComparedWithItself) {
  std::vector<fb::AlgoConfig> c{{"", "", {point(1 << 20, 77.4, 0.005)}, ""},
                                {"", "LL", {point(1 << 20, 79.0, 0.005)}, ""},
                                {"Tree", "Simple", {point(1 << 20, 90.0, 0.005)}, ""}};
  c[0].points[0].nccl_algo = "RING";
  c[0].points[0].nccl_proto = "LL";
  const auto f = fb::forced_beats_default(c, 0.01, 0);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].evidence.find("NCCL_ALGO=Tree NCCL_PROTO=Simple reaches 90.0"), std::string::npos)
      << f[0].evidence;
  EXPECT_NE(f[0].evidence.find("NCCL's own choice (RING/LL) 77.4 GB/s (+16.3%"), std::string::npos)
      << f[0].evidence;
  EXPECT_EQ(f[0].severity, fb::Severity::warning);
}

TEST(Algos, OneFindingPerSizeForTheBestForcedChoice) {
  std::vector<fb::AlgoConfig> c{{"", "", {point(1 << 30, 331, 0.002)}, ""},
                                {"Tree", "", {point(1 << 30, 341, 0.002)}, ""},
                                {"Tree", "Simple", {point(1 << 30, 343, 0.002)}, ""}};
  const auto f = fb::forced_beats_default(c, 0.01, 0);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].evidence.find("NCCL_ALGO=Tree NCCL_PROTO=Simple reaches 343.0"), std::string::npos)
      << f[0].evidence;
  EXPECT_EQ(c[1].label(), "Tree/*");
}

TEST(Algos, TunerCsvCoversEverySizeOnceWithMergedRanges) {
  std::vector<fb::AlgoConfig> c{{"", "", {}, ""}, {"Tree", "Simple", {}, ""}};
  std::vector<fb::SizeWinner> w{{1024, 0, 1, "RING", "LL"},
                                {4096, 0, 1, "RING", "LL"},
                                {1 << 20, 0, 1, "RING", "SIMPLE"},
                                {1 << 30, 1, 1, "", ""}};
  const auto csv = fb::tuner_csv("all_reduce", 2, 1, w, c);
  const std::string expected =
      "# NCCL tuner plugin configuration written by fabricbench algos (2 ranks, 1 node)\n"
      "# colltype,minbytes,maxbytes,algorithm,protocol,channels,nNodes,nRanks,numPipeOps,regBuff\n"
      "allreduce,0,65536,ring,ll,-1,1,2,-1,-1\n"  // 1 KiB and 4 KiB merged; sqrt(4096 * 1 MiB) = 65536
      "allreduce,65537,33554432,ring,simple,-1,1,2,-1,-1\n"  // sqrt(1 MiB * 1 GiB) = 32 MiB
      "allreduce,33554433,18446744073709551615,tree,simple,-1,1,2,-1,-1\n";
  EXPECT_EQ(csv, expected);
  EXPECT_THROW(fb::tuner_csv("alltoall", 2, 1, w, c), fb::Error);
}

TEST(Algos, TunerCsvNamesTheCollectiveAsThePluginDoes) {
  const std::vector<fb::AlgoConfig> c{{"", "", {}, ""}};
  const std::vector<fb::SizeWinner> w{{1 << 20, 0, 1, "RING", "SIMPLE"}};
  const std::string row = ",0,18446744073709551615,ring,simple,-1,1,8,-1,-1\n";
  EXPECT_NE(fb::tuner_csv("reduce_scatter", 8, 1, w, c).find("\nreducescatter" + row), std::string::npos);
  EXPECT_NE(fb::tuner_csv("all_gather", 8, 1, w, c).find("\nallgather" + row), std::string::npos);
  EXPECT_NE(fb::tuner_csv("broadcast", 8, 1, w, c).find("\nbroadcast" + row), std::string::npos);
  try {
    fb::tuner_csv("sendrecv", 8, 1, w, c);
    FAIL();
  } catch (const fb::Error& e) {
    EXPECT_EQ(e.code(), fb::ExitCode::usage);
    EXPECT_NE(std::string(e.what()).find("no entry type for sendrecv"), std::string::npos);
  }
}

// The log of fabricbench's own probe pass (algos, 2 x H200, one worker process's file).
TEST(NcclLog, FabricbenchProbeLog) {
  const auto s = fb::parse_nccl_log(read("fabricbench-probe-2.28.3-all_reduce-rank.log"));
  const auto& ar = s.choices.at("AllReduce");
  EXPECT_EQ(ar.size(), 6u);  // 64K, 1M, 16M, 256M, 1G, 4G: one call each
  EXPECT_EQ(ar.at(65536).proto, "LL");
  EXPECT_EQ(ar.at(16777216).proto, "SIMPLE");
  EXPECT_EQ(ar.at(4294967296ULL).algo, "RING");
  EXPECT_EQ(s.transports, (std::set<std::string>{"P2P/CUMEM"}));
  EXPECT_EQ(s.coll_channels, 24);
}

// NCCL_P2P_DISABLE=1, two processes (captured with fabricbench algos --keep-logs): NCCL falls back
// to shared memory and logs its channels without the "/connection" suffix.
TEST(NcclLog, SharedMemoryFallbackLog) {
  const auto s = fb::parse_nccl_log(read("fabricbench-probe-2.28.3-p2p-disabled-rank0.log"));
  EXPECT_EQ(s.transports, (std::set<std::string>{"SHM/direct/direct"}));
  EXPECT_EQ(s.coll_channels, 4);
  EXPECT_EQ(s.p2p_channels, 4);
}

// What the algos sweep says when NCCL's log lacks what it shows.
TEST(NcclLog, GapsAreSaidPlainly) {
  EXPECT_EQ(fb::nccl_log_gaps(fb::parse_nccl_log(
                read("nccl-2.28.3-all_reduce-8B-1GiB-2procs-rank0-INFO-INIT-GRAPH-TUNING.log"))),
            "");
  EXPECT_EQ(
      fb::nccl_log_gaps(fb::parse_nccl_log("h NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/C\n")),
      "NCCL's log held no version line, no channel counts, no tuning choices (NCCL_DEBUG_SUBSYS without "
      "TUNING?), 1 connection line whose transport was unreadable: shown as \"not in NCCL's log\"");
}
