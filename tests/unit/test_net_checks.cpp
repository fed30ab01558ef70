// NET_SOCKET and NET_NO_GDR from the transports NCCL logged (names as in NCCL 2.28's INFO lines).
#include <gtest/gtest.h>

#include "analyse/judge.hpp"
#include "analyse/network/net_checks.hpp"

namespace {

fb::Result with_transports(std::vector<std::string> transports) {
  fb::Result r;
  fb::Run run;
  run.collective = "all_reduce";
  run.nccl_transports = std::move(transports);
  r.runs.push_back(run);
  return r;
}

}  // namespace

TEST(NetChecks, SocketFallbackIsAWarning) {
  const auto f = fb::check_net_transport(with_transports({"NET/Socket/0", "P2P/CUMEM"}));
  ASSERT_EQ(f.size(), 1U);
  EXPECT_EQ(f[0].code, "NET_SOCKET");
  EXPECT_EQ(f[0].severity, fb::Severity::warning);
  EXPECT_EQ(f[0].evidence, "all_reduce: NCCL's network connections went over TCP sockets (NET/Socket/0)");
}

TEST(NetChecks, InfinibandWithoutGdrIsAWarningWithGdrNothing) {
  const auto off = fb::check_net_transport(with_transports({"NET/IB/0", "NET/IB/1/GDRDMA"}));
  ASSERT_EQ(off.size(), 1U);
  EXPECT_EQ(off[0].code, "NET_NO_GDR");
  EXPECT_EQ(off[0].evidence, "all_reduce: NCCL used InfiniBand/RoCE without GPUDirect RDMA (NET/IB/0)");
  EXPECT_TRUE(fb::check_net_transport(with_transports({"NET/IB/0/GDRDMA", "NET/IB/1/GDRDMA"})).empty());
  EXPECT_TRUE(fb::check_net_transport(with_transports({"P2P/CUMEM", "SHM/direct/direct"})).empty());
}

TEST(NetChecks, PartOfTheDoctorsVerdicts) {
  bool seen = false;
  for (const auto& f : fb::analyse_result(with_transports({"NET/Socket/1"})))
    seen = seen || f.code == "NET_SOCKET";
  EXPECT_TRUE(seen);
}
