// NCCL_DEBUG=INFO logs of every NCCL generation fabricbench reads, each fixture with the facts it
// holds (tests/fixtures/nccl/README.md says where each came from; synthesised ones say so).
#include <gtest/gtest.h>

#include "comm/nccl_log.hpp"
#include "topology_fixtures.hpp"

namespace {

fb::NcclLogSummary parse(const std::string& name) {
  return fb::parse_nccl_log(read_fixture(std::string(FB_FIXTURE_DIR) + "/nccl/" + name));
}

fb::NcclNic ib(int index, const std::string& device, const std::string& link, bool sharp) {
  return {"IB", index, device, 1, link, sharp, ""};
}

}  // namespace

// 2.17-2.19: the channel line has no collnet field; before this fix the counts read 0.
TEST(NcclLogGenerations, ChannelLineWithoutCollnet) {
  const auto s = parse("nccl-2.18-8xH800-issue892.log");
  EXPECT_EQ(s.coll_channels, 16);
  EXPECT_EQ(s.nvls_channels, 0);
  EXPECT_EQ(s.p2p_channels, 16);
  EXPECT_EQ(s.transports, (std::set<std::string>{"P2P/direct pointer"}));
  EXPECT_EQ(s.net_plugin, "NCCL RDMA Plugin");
  EXPECT_EQ(s.version, "");        // the excerpt has none: not read, not made up
  EXPECT_FALSE(s.nvls_available);  // no multicast line: not in the log
  EXPECT_TRUE(s.choices.empty());
}

// Up to 2.21 the version line is bare on stdout ("NCCL version 2.19.3+cuda12.3").
TEST(NcclLogGenerations, BareVersionLineAndSocketNic) {
  const auto s = parse("nccl-2.19.3-1gpu-socket-issue1267.log");
  EXPECT_EQ(s.version, "2.19.3");
  ASSERT_TRUE(s.nics);
  EXPECT_EQ(*s.nics, (std::vector<fb::NcclNic>{{"Socket", 0, "ens7", 0, "", false, "10.128.0.31<0>"}}));
  EXPECT_EQ(s.network, "Socket");
  EXPECT_FALSE(s.coll_channels);  // a one-rank excerpt without the channel line
  EXPECT_TRUE(s.transports.empty());
  EXPECT_EQ(fb::parse_nccl_log("[0] NCCL version 2.20.5+cuda12.4\n").version, "2.20.5");  // mpirun's tag
  EXPECT_EQ(fb::parse_nccl_log("error in ProcessGroupNCCL, NCCL version 2.18.1\n").version, "");
}

TEST(NcclLogGenerations, NetIbRoceNics) {
  const auto s = parse("nccl-2.19.3-2xH100-roce-nccl-tests-issue185.log");
  EXPECT_EQ(s.version, "2.19.3");
  ASSERT_TRUE(s.nics);
  EXPECT_EQ(*s.nics,
            (std::vector<fb::NcclNic>{ib(0, "mlx5_10", "RoCE", false), ib(1, "mlx5_11", "RoCE", false)}));
  EXPECT_EQ(s.network, "IB");
}

TEST(NcclLogGenerations, NetIbSharpNicsAndPlugin) {
  const auto s = parse("nccl-h100-ib-sharp-issue1357.log");
  ASSERT_TRUE(s.nics);
  EXPECT_EQ(*s.nics, (std::vector<fb::NcclNic>{ib(0, "mlx5_0", "IB", true), ib(1, "mlx5_1", "IB", true),
                                               ib(2, "mlx5_4", "IB", true), ib(3, "mlx5_5", "IB", true)}));
  EXPECT_EQ(s.network, "IBext");
  EXPECT_EQ(s.net_plugin, "NCCL RDMA Plugin v6");
}

// 2.20-2.22: "8 Bytes -> Algo 0 proto 0 time 25.2", no operation named, numbers of NCCL's enums;
// nccl-tests rows interleave with the log on a shared terminal.
TEST(NcclLogGenerations, NumberedChoicesWithoutOperation) {
  const auto s = parse("nccl-2.20-2.22-24xH100-tuning-issue1453.log");
  ASSERT_EQ(s.choices.size(), 1u);
  const auto* ar = fb::choices_for(s, "AllReduce");
  ASSERT_NE(ar, nullptr);
  EXPECT_EQ(ar->size(), 4u);
  EXPECT_EQ(ar->at(8), (fb::NcclChoice{"TREE", "LL", std::nullopt}));
  EXPECT_EQ(ar->at(1024), (fb::NcclChoice{"TREE", "LL", std::nullopt}));
  EXPECT_EQ(ar->at(65536), (fb::NcclChoice{"TREE", "LL", std::nullopt}));
  EXPECT_EQ(ar->at(131072), (fb::NcclChoice{"TREE", "LL128", std::nullopt}));
  EXPECT_EQ(s.version, "");
  EXPECT_FALSE(s.coll_channels);
}

// 2.23: the operation is named again, the numbers stay; PAT (6) is new.
TEST(NcclLogGenerations, NumberedChoicesWithOperation) {
  const auto s = parse("synthesised-nccl-2.23.4-2gpu-tuning.log");
  EXPECT_EQ(s.version, "2.23.4");
  const auto& ar = s.choices.at("AllReduce");
  EXPECT_EQ(ar.at(8), (fb::NcclChoice{"RING", "LL", std::nullopt}));
  EXPECT_EQ(ar.at(1048576).proto, "LL");
  EXPECT_EQ(ar.at(2097152), (fb::NcclChoice{"RING", "SIMPLE", std::nullopt}));
  EXPECT_EQ(s.choices.at("AllGather").at(1073741824).algo, "PAT");
  EXPECT_EQ(fb::choices_for(s, "ReduceScatter"), nullptr);
  EXPECT_EQ(s.coll_channels, 24);
  EXPECT_EQ(s.nvls_channels, 0);
  EXPECT_EQ(s.nvls_available, false);
  EXPECT_EQ(s.transports, (std::set<std::string>{"P2P/CUMEM/read"}));
  // An algorithm number outside NCCL's enum is not a choice.
  EXPECT_TRUE(
      fb::parse_nccl_log("h NCCL INFO AllReduce: 8 Bytes -> Algo 7 proto 0 time 1.0\n").choices.empty());
}

TEST(NcclLogGenerations, NvlsAvailableWithHeads) {
  const auto s = parse("nccl-2.2x-24xH100-nvls-issue1453.log");
  EXPECT_EQ(s.nvls_available, true);
  EXPECT_EQ(s.nvls_heads, 8);
  EXPECT_FALSE(s.nvls_channels);      // the excerpt has no channel line
  EXPECT_TRUE(s.transports.empty());  // ring lines ("Channel 00/16 :    0   7 ...") are not connections
  EXPECT_EQ(s.unreadable_connections, 0);
}

TEST(NcclLogGenerations, NvlsChannelsOnEightH200) {
  const auto s = parse("synthesised-nccl-2.28.3-8xH200-nvls.log");
  EXPECT_EQ(s.version, "2.28.3");
  EXPECT_EQ(s.nvls_available, true);
  EXPECT_EQ(s.nvls_heads, 8);
  EXPECT_EQ(s.nvls_channels, 16);
  EXPECT_EQ(s.coll_channels, 24);
  EXPECT_EQ(s.choices.at("AllReduce").at(4294967296ULL), (fb::NcclChoice{"NVLS", "SIMPLE", 16}));
  ASSERT_TRUE(s.nics);
  EXPECT_EQ(s.nics->size(), 8u);
  EXPECT_EQ(s.nics->at(7), ib(7, "mlx5_11", "IB", false));
}

// NVLS off on one rank means off for the communicator.
TEST(NcclLogGenerations, NvlsNotAvailableOnAnyRankWins) {
  auto a = fb::parse_nccl_log("h NCCL INFO NVLS multicast support is available on dev 0\n");
  const auto b = fb::parse_nccl_log("h NCCL INFO NVLS multicast support is not available on dev 1\n");
  fb::merge_nccl_logs(a, b);
  EXPECT_EQ(a.nvls_available, false);
}

// A log wrapped at 64 columns reads as the log itself; before this fix the transport read
// "P2P/C" and the channel counts were lost.
TEST(NcclLogGenerations, WrappedPasteReadsAsTheOriginal) {
  const auto wrapped = parse("synthesised-wrapped-64col-nccl-2.28.3-rank0.log");
  const auto original = parse("nccl-2.28.3-all_reduce-8B-1GiB-2procs-rank0-INFO-INIT-GRAPH-TUNING.log");
  EXPECT_EQ(wrapped.transports, (std::set<std::string>{"P2P/CUMEM"}));
  EXPECT_EQ(wrapped.version, original.version);
  EXPECT_EQ(wrapped.coll_channels, 24);
  EXPECT_EQ(wrapped.nvls_channels, original.nvls_channels);
  EXPECT_EQ(wrapped.p2p_channels, original.p2p_channels);
  EXPECT_EQ(wrapped.choices, original.choices);
  EXPECT_EQ(wrapped.nics, original.nics);
  EXPECT_EQ(wrapped.unreadable_connections, 0);
}

// Two records joined on one line: the transport ends where NCCL's does.
TEST(NcclLogGenerations, JoinedRecordsKeepTheTransport) {
  const auto s = fb::parse_nccl_log(
      "h:1:2 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read h:1:2 [1] NCCL INFO Channel 00/0 : "
      "1[1] -> "
      "0[0] via NET/IB/0/GDRDMA\n"
      "h:1:2 [0] NCCL INFO Channel 01/0 : 0[0] -> 1[1] via P2P/CU\n");
  EXPECT_EQ(s.transports, (std::set<std::string>{"P2P/CUMEM/read"}));
  EXPECT_EQ(s.unreadable_connections, 1);  // the cut one: counted, not recorded
}

// The 2.28.3 capture's network lines: no IB device, one socket, NCCL chose sockets.
TEST(NcclLogGenerations, CurrentNcclNetworkLines) {
  const auto s = parse("nccl-2.28.3-all_reduce-8B-1GiB-2procs-rank0-INFO-INIT-GRAPH-TUNING.log");
  ASSERT_TRUE(s.nics);
  EXPECT_EQ(*s.nics, (std::vector<fb::NcclNic>{{"Socket", 0, "eth0", 0, "", false, "192.0.2.2<0>"}}));
  EXPECT_EQ(s.network, "Socket");
  EXPECT_EQ(s.nvls_channels, 0);
  EXPECT_EQ(s.choices.at("AllReduce").at(8).channels, 1);
}

// A log without any of the lines: every fact "not in NCCL's log", none zero.
TEST(NcclLogGenerations, NothingReadIsNotZero) {
  const auto s = fb::parse_nccl_log("h NCCL INFO Init COMPLETE\n");
  EXPECT_FALSE(s.coll_channels);
  EXPECT_FALSE(s.p2p_channels);
  EXPECT_FALSE(s.nvls_channels);
  EXPECT_FALSE(s.nvls_available);
  EXPECT_FALSE(s.nics);
  EXPECT_TRUE(s.version.empty());
  EXPECT_TRUE(s.network.empty());
}
