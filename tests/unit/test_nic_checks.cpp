// The NIC_* rules (analyse/network/nic_checks.hpp) and NET_SOCKET's port evidence on the network fixture
// trees: each finding with its evidence on the faulty trees, none on the healthy ones.
#include <gtest/gtest.h>

#include <algorithm>

#include "analyse/judge.hpp"
#include "analyse/network/net_checks.hpp"
#include "analyse/network/nic_checks.hpp"
#include "analyse/verdict/verdict_contract.hpp"
#include "nic_fixtures.hpp"

namespace {

std::vector<fb::Finding> with_code(const std::vector<fb::Finding>& all, const std::string& code) {
  std::vector<fb::Finding> out;
  std::copy_if(all.begin(), all.end(), std::back_inserter(out),
               [&](const fb::Finding& f) { return f.code == code; });
  return out;
}

bool mentions(const fb::Finding& f, const std::string& text) {
  return f.evidence.find(text) != std::string::npos;
}

}  // namespace

TEST(NicChecks, HealthyTreesGiveNoFinding) {
  EXPECT_TRUE(fb::check_nics(nic_result("ib8")).empty());
  EXPECT_TRUE(fb::check_nics(nic_result("h200-net")).empty());
  EXPECT_TRUE(fb::check_nics(nic_result("h200x2")).empty());  // no port under the root
  EXPECT_TRUE(fb::check_nics(fb::Result{}).empty());          // no host facts
}

TEST(NicChecks, PortDownIsAWarningCitingThePort) {
  const auto down = with_code(fb::check_nics(nic_result("ib8-faulty")), "NIC_PORT_DOWN");
  ASSERT_EQ(down.size(), 1U);
  EXPECT_EQ(down[0].severity, fb::Severity::warning);
  EXPECT_EQ(down[0].evidence,
            "IB/RoCE ports not ACTIVE: mlx5_3:1 (IB, 400 Gb/s, DOWN/Disabled, NUMA 0, "
            "pci0000:40/0000:40:01.0/0000:41:00.0/0000:42:01.0/0000:44:00.0)");
  EXPECT_FALSE(down[0].hint.empty());
}

TEST(NicChecks, RateMismatchNamesTheSlowerPort) {
  const auto slow = with_code(fb::check_nics(nic_result("ib8-faulty")), "NIC_RATE_MISMATCH");
  ASSERT_EQ(slow.size(), 1U);  // eno1 is the only Ethernet port: no Ethernet mismatch
  EXPECT_EQ(slow[0].severity, fb::Severity::warning);
  EXPECT_TRUE(mentions(
      slow[0],
      "IB ports at 2 rates: 400 Gb/s on 6 port(s); slower: mlx5_5:1 (IB, 200 Gb/s, ACTIVE/LinkUp, NUMA 1"))
      << slow[0].evidence;  // mlx5_3 is down: not counted among the 400 Gb/s ports
  EXPECT_EQ(slow[0].expected, "every IB port at 400 Gb/s");
}

TEST(NicChecks, NoGdrOnlyWhenBothWaysAreKnownImpossible) {
  const auto none = with_code(fb::check_nics(nic_result("ib8-faulty")), "NIC_NO_GDR");
  ASSERT_EQ(none.size(), 1U);
  EXPECT_EQ(none[0].severity, fb::Severity::warning);
  EXPECT_TRUE(mentions(none[0], "peer-memory module none (/sys/module)")) << none[0].evidence;
  EXPECT_TRUE(mentions(none[0], "kernel 5.4.0-182-generic is older than 5.12")) << none[0].evidence;
  // dma-buf unknown (not captured): nothing is claimed.
  auto r = nic_result("ib8-faulty");
  r.host.config->network.gdr_dma_buf = {"", "/proc/sys/kernel/osrelease", fb::kNotCaptured};
  EXPECT_TRUE(with_code(fb::check_nics(r), "NIC_NO_GDR").empty());
}

TEST(NicChecks, GpuWhoseNearestNicIsOnTheOtherSocket) {
  const auto far = with_code(fb::check_nics(nic_result("ib2-far")), "NIC_FAR_FROM_GPU");
  ASSERT_EQ(far.size(), 1U);  // GPU 0 has mlx5_0 beside it
  EXPECT_EQ(far[0].severity, fb::Severity::warning);
  EXPECT_TRUE(mentions(far[0],
                       "GPU 1 (0000:23:00.0) on NUMA node 1: its nearest up IB/RoCE port mlx5_0:1 (IB, "
                       "400 Gb/s, ACTIVE/LinkUp, NUMA 0, pci0000:10/"))
      << far[0].evidence;
  EXPECT_TRUE(mentions(far[0], "is SYS away")) << far[0].evidence;
  EXPECT_EQ(fb::check_nics(nic_result("ib2-far")).size(), 1U);  // and nothing else
}

TEST(NicChecks, EthernetDownIsInfo) {
  auto r = nic_result("h200-net");
  r.host.config->network.ports[0].state = "down";
  r.host.config->network.ports[0].up = false;
  const auto f = fb::check_nics(r);
  ASSERT_EQ(f.size(), 1U);
  EXPECT_EQ(f[0].code, "NIC_PORT_DOWN");
  EXPECT_EQ(f[0].severity, fb::Severity::info);
  EXPECT_EQ(f[0].evidence,
            "Ethernet interfaces down: eth0 (Ethernet, rate unknown, down, NUMA unknown, "
            "pci0000:00/0000:00:03.0)");
}

TEST(NicChecks, SocketTransportCitesTheUpIbPorts) {
  auto r = nic_result("ib8-faulty");
  fb::Run run;
  run.collective = "all_reduce";
  run.nccl_transports = {"NET/Socket/0"};
  r.runs.push_back(run);
  const auto f = with_code(fb::check_net_transport(r), "NET_SOCKET");
  ASSERT_EQ(f.size(), 1U);
  EXPECT_TRUE(mentions(f[0], "although IB/RoCE ports are up: mlx5_0:1 (IB, 400 Gb/s, ACTIVE/LinkUp, NUMA 0"))
      << f[0].evidence;
  EXPECT_FALSE(mentions(f[0], "mlx5_3:1")) << f[0].evidence;  // down: not a port NCCL could use
  EXPECT_EQ(f[0].hint.rfind("the host's IB/RoCE ports are up but NCCL did not use them: check", 0), 0U)
      << f[0].hint;
  // Without IB ports the evidence stays NCCL's alone.
  auto plain = nic_result("h200-net");
  plain.runs.push_back(run);
  EXPECT_EQ(with_code(fb::check_net_transport(plain), "NET_SOCKET")[0].evidence,
            "all_reduce: NCCL's network connections went over TCP sockets (NET/Socket/0)");
}

TEST(NicChecks, TheNetworkCheckJudgesThemInTheVerdict) {
  const auto r = nic_result("ib8-faulty");
  const auto findings = fb::analyse_result(r);
  EXPECT_FALSE(with_code(findings, "NIC_PORT_DOWN").empty());
  const auto v = fb::verdict_of(r, findings);
  const auto it =
      std::find_if(v.checks.begin(), v.checks.end(), [](const auto& c) { return c.check == "network"; });
  ASSERT_NE(it, v.checks.end());
  EXPECT_EQ(it->status, fb::CheckStatus::warning);
  const auto healthy = nic_result("ib8");
  const auto hv = fb::verdict_of(healthy, fb::analyse_result(healthy));
  const auto h =
      std::find_if(hv.checks.begin(), hv.checks.end(), [](const auto& c) { return c.check == "network"; });
  ASSERT_NE(h, hv.checks.end());
  EXPECT_EQ(h->status, fb::CheckStatus::pass);
}
