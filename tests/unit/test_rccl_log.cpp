// RCCL's NCCL_DEBUG=INFO lines read into the same summary as NCCL's, on real excerpts from
// public issue threads (tests/fixtures/nccl/rccl-*.log; each file's first line gives its URL).
#include <gtest/gtest.h>

#include "comm/nccl_log.hpp"
#include "topology_fixtures.hpp"

namespace {

fb::NcclLogSummary parse(const std::string& name) {
  return fb::parse_nccl_log(read_fixture(std::string(FB_FIXTURE_DIR) + "/nccl/" + name));
}

}  // namespace

// RCCL appends the communicator to each connection line and prints the peer's bus id in hex.
TEST(RcclLog, TransportsWithoutTheCommunicator) {
  const auto s = parse("rccl-mi250x-2nodes-issue1026.log");
  EXPECT_EQ(s.transports, (std::set<std::string>{"NET/Socket/1", "NET/Socket/2", "P2P/IPC"}));
}

TEST(RcclLog, LegacyChannelLineAndPeers) {
  const auto s = parse("rccl-4gpu-issue419.log");
  EXPECT_EQ(s.transports, (std::set<std::string>{"P2P/IPC"}));
  EXPECT_EQ(s.coll_channels, 4);
  EXPECT_EQ(s.p2p_channels, 2);
  EXPECT_FALSE(s.nvls_channels);  // the line of NCCL before 2.17 has no NVLS: not in the log
}

// RCCL's topology dump gives its model of an xGMI link: 24 GB/s for MI100 (Vega-class xGMI).
TEST(RcclLog, XgmiLinkModelFromTheTopologyDump) {
  const auto s = parse("rccl-mi100-topology-issue901.log");
  EXPECT_DOUBLE_EQ(s.xgmi_link_gbps, 24.0);
  EXPECT_TRUE(s.transports.empty());
}

// The version and graph lines in RCCL's formats: the version string as ROCm/rccl #212 describes
// it ("RCCL version 2.6.4+hip3.5") and as RCCL 2.30 prints it; the graph line in the format of
// NCCL's search.cc that RCCL keeps ("Pattern %d, crossNic %d, nChannels %d, bw %f/%f, type %s/%s,
// sameChannels %d"). No public log with these lines and a URL was found; these are built lines.
TEST(RcclLog, VersionAndXgmiGraphLines) {
  auto s = fb::parse_nccl_log("host:1:1 [0] NCCL INFO RCCL version 2.6.4+hip3.5\n");
  EXPECT_EQ(s.version, "2.6.4");
  EXPECT_EQ(s.library, "RCCL");
  s = fb::parse_nccl_log("host:1:1 [0] NCCL INFO RCCL version : 2.30.4-HEAD:2b22ab0\n");
  EXPECT_EQ(s.version, "2.30.4");
  s = fb::parse_nccl_log(
      "h:1:2 [0] NCCL INFO Pattern 4, crossNic 0, nChannels 2, bw 24.000000/24.000000, type XGMI/PIX, "
      "sameChannels 0\n"
      "h:1:2 [0] NCCL INFO Pattern 1, crossNic 0, nChannels 4, bw 24.000000/24.000000, type NVL/PIX, "
      "sameChannels 0\n");
  EXPECT_EQ(s.xgmi_graph_channels, 2);  // the NVL graph is not xGMI
  EXPECT_TRUE(fb::parse_nccl_log("h NCCL INFO NCCL version 2.28.3+cuda13.0\n").library.empty());
}

// Two ranks' summaries merge as NCCL's do.
TEST(RcclLog, MergeKeepsTheRcclFields) {
  auto a = parse("rccl-4gpu-issue419.log");
  fb::merge_nccl_logs(a, parse("rccl-mi100-topology-issue901.log"));
  EXPECT_DOUBLE_EQ(a.xgmi_link_gbps, 24.0);
  EXPECT_EQ(a.coll_channels, 4);
}
