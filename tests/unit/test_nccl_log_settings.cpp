// NCCL's lines about what it took from the environment and about its communicator, read from real logs
// (tests/fixtures/nccl/README.md names each one's source).
#include <gtest/gtest.h>

#include "comm/nccl_log.hpp"
#include "core/file_io.hpp"

namespace {

fb::NcclLogSummary parse(const std::string& name) {
  return fb::parse_nccl_log(fb::read_file(std::string(FB_FIXTURE_DIR) + "/nccl/" + name));
}

}  // namespace

// RCCL on two MI250X hosts: "NCCL_P2P_LEVEL set by environment to XGMI", its communicator of 8 ranks
// (RCCL's "comm 0x.. nRanks 08" suffix) and the two hosts its lines come from.
TEST(NcclLogSettings, RcclSettingSizeAndHosts) {
  const auto s = parse("rccl-mi250x-2nodes-issue1026.log");
  EXPECT_EQ(s.env, (std::map<std::string, std::string>{{"NCCL_P2P_LEVEL", "XGMI"}}));
  EXPECT_EQ(s.nranks, 8);
  EXPECT_EQ(s.hosts, (std::set<std::string>{"g1064", "g1072"}));
}

// NCCL 2.28.3, two processes: "comm .. rank 0 nRanks 2 nNodes 1" and "ncclCommInitRankConfig comm .. nranks
// 2".
TEST(NcclLogSettings, CommunicatorOfTwoRanksOnOneHost) {
  const auto s = parse("nccl-2.28.3-all_reduce-8B-1GiB-2procs-rank0-INFO-INIT-GRAPH-TUNING.log");
  EXPECT_EQ(s.nranks, 2);
  EXPECT_EQ(s.nnodes, 1);
  EXPECT_EQ(s.hosts, (std::set<std::string>{"vm"}));
  EXPECT_TRUE(s.env.empty());
}

// NCCL 2.18 on 8 H800 (NVIDIA/nccl#892): a text setting keeps its value whole, commas and all.
TEST(NcclLogSettings, TextSettingKeptWhole) {
  const auto s = parse("nccl-2.18-8xH800-issue892.log");
  EXPECT_EQ(s.env.at("NCCL_ALGO"), "Tree,Ring,,CollnetDirect,CollnetChain,NVLS");
}

// NCCL 2.28.3 under NCCL_P2P_DISABLE=1 (the project's GPU machine): "set by environment to 1", no full stop.
TEST(NcclLogSettings, P2pDisabledOn2283) {
  const auto s = parse("fabricbench-probe-2.28.3-p2p-disabled-rank0.log");
  EXPECT_EQ(s.env.at("NCCL_P2P_DISABLE"), "1");
}
