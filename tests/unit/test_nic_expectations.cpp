// The network judged by its NICs (issue 42): cross-host figures held against the bound computed from
// every host's IB/RoCE ports (analyse/expect/network_bound.hpp, analyse/expect/cross_host_expectation.hpp),
// at 2, 4, 16 and 128 hosts, on documents built from the NIC sysfs fixture trees
// (tests/unit/cluster_fixtures.hpp). The expected bounds are computed by hand below from the trees
// (tests/fixtures/topo/README.md).
#include <gtest/gtest.h>

#include <algorithm>

#include "analyse/expect/cross_host_expectation.hpp"
#include "analyse/expect/expectations.hpp"
#include "analyse/expect/expected_figure.hpp"
#include "analyse/expect/network_bound.hpp"
#include "analyse/expect/port_figures.hpp"
#include "analyse/hosts/cluster_limit.hpp"
#include "analyse/judge.hpp"
#include "analyse/network/nic_checks.hpp"
#include "analyse/scope/gpu_names.hpp"
#include "analyse/verdict/headline_figures.hpp"
#include "analyse/verdict/headline_words.hpp"
#include "analyse/verdict/outcome.hpp"
#include "cluster_fixtures.hpp"
#include "report/judgement.hpp"

namespace {

constexpr std::uint64_t kGi = 1ULL << 30;
constexpr std::uint64_t kMi = 1ULL << 20;

// By hand: ib8, 8 ports at 400G beside the GPUs with nvidia_peermem: 8 x 48. roce4: the 4 RoCE ports
// at 400G beside GPUs 0, 2, 4, 6 (the 200G port beside no GPU is not counted): 4 x 48. ib2-far: one
// port beside GPU 0: 48. ib8-faulty: mlx5_3 down, mlx5_5 at 200G, no GPUDirect RDMA (staged, two
// thirds): 6 x 32 + 1 x 16.
constexpr double kIb8 = 384;
constexpr double kRoce4 = 192;
constexpr double kIb2Far = 48;
constexpr double kIb8Faulty = 6 * 32 + 16;

const fb::Finding* find(const std::vector<fb::Finding>& findings, const std::string& code) {
  for (const auto& f : findings)
    if (f.code == code) return &f;
  return nullptr;
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

std::size_t gpus_of(const std::string& tree) { return tree == "ib2-far" ? 2 : 8; }

fb::Result judged(ClusterSpec spec) {
  auto r = cluster_result(spec);
  fb::judge(r);
  return r;
}

// A size the NIC figures hold for on `hosts` hosts of `tree` (64 MiB a GPU, at least 16 GiB).
std::uint64_t size_for(std::size_t hosts, const std::string& tree) {
  return std::max<std::uint64_t>(16 * kGi, hosts * gpus_of(tree) * 64 * kMi);
}

double expected_of(const fb::Result& r) {
  const auto& run = r.runs.front();
  const auto e = fb::collective_expectation(r, run, run.points.front());
  return e ? e->value : 0;
}

struct Case {
  std::string tree;
  double bound;
};

}  // namespace

// Acceptance: healthy figures near 100% of the computed bound pass; 65% of it is a warning, never
// "Healthy", at every host count and on every tree (IB, RoCE, a port far from a GPU).
TEST(NicExpectations, HealthyPassesAndSixtyFivePercentWarnsAtAnyHostCount) {
  for (const auto& c : {Case{"ib8", kIb8}, Case{"roce4", kRoce4}, Case{"ib2-far", kIb2Far}})
    for (const std::size_t hosts : {2U, 4U, 16U, 128U}) {
      const std::string what = c.tree + " x " + std::to_string(hosts);
      ClusterSpec spec{trees(hosts, c.tree)};
      spec.bytes = size_for(hosts, c.tree);
      spec.busbw = 0.98 * c.bound;
      const auto healthy = judged(spec);
      EXPECT_NEAR(expected_of(healthy), c.bound, 1e-9) << what;
      EXPECT_EQ(find(healthy.findings, "BUSBW_BELOW_EXPECTED"), nullptr) << what;
      EXPECT_EQ(find(healthy.findings, "NO_EXPECTATION"), nullptr) << what;
      const auto lowest = fb::worst_shortfall(healthy);
      ASSERT_TRUE(lowest.has_value()) << what;
      EXPECT_NEAR(lowest->share, 0.98, 1e-9) << what;
      EXPECT_FALSE(lowest->below_floor) << what;
      // roce4's 200G port (NIC_RATE_MISMATCH) and ib2-far's GPU 1 (NIC_FAR_FROM_GPU) warn of their own.
      if (c.tree == "ib8") EXPECT_EQ(fb::headline_outcome(healthy).key, "healthy") << what;
      spec.busbw = 0.65 * c.bound;
      const auto sick = judged(spec);
      const auto* below = find(sick.findings, "BUSBW_BELOW_EXPECTED");
      ASSERT_NE(below, nullptr) << what;
      EXPECT_EQ(below->severity, fb::Severity::warning);
      EXPECT_TRUE(contains(below->evidence, "is 65% of the expected")) << below->evidence;
      EXPECT_TRUE(contains(below->evidence, "every host (node")) << below->evidence;
      EXPECT_NE(fb::headline_outcome(sick).key, "healthy") << what;
      EXPECT_EQ(sick.verdict->status, fb::CheckStatus::warning) << what;
    }
}

// Acceptance: 4 hosts x 8 H100 with 8 x 400G IB. 365.8 GB/s (nccl-tests #309's 4-host figure) is judged
// against the computed 384 GB/s; 250 GB/s is below expectation, never "Healthy".
TEST(NicExpectations, FourHostsOfH100JudgedAgainstTheirNics) {
  ClusterSpec spec{trees(4, "ib8")};
  spec.busbw = 365.8;
  const auto ok = judged(spec);
  EXPECT_EQ(find(ok.findings, "NO_EXPECTATION"), nullptr);
  EXPECT_EQ(find(ok.findings, "BUSBW_BELOW_EXPECTED"), nullptr);
  const auto heads = fb::headline_figures(ok);
  ASSERT_EQ(heads.size(), 1U);
  EXPECT_DOUBLE_EQ(heads[0].expected, 384);
  EXPECT_EQ(heads[0].percent_text(), "95% of expected");
  EXPECT_TRUE(contains(heads[0].expected_source,
                       "a ring's NIC bound: every host (node[01-04]): 8 x 48 GB/s (IB 400 Gb/s) = 384.0 GB/s "
                       "(rail-optimised: each GPU has its own port under its PCIe switch; GPUDirect RDMA "
                       "possible (nvidia_peermem)); per port: 400 Gb/s: NVIDIA, nccl-tests #290 and #267"))
      << heads[0].expected_source;
  EXPECT_EQ(fb::headline_outcome(ok).words,
            "Healthy: no problem found; the lowest figure: all_reduce busbw at 16 GiB: 365.8 GB/s, 95% of "
            "expected 384.0 GB/s");

  spec.busbw = 250;
  const auto sick = judged(spec);
  const auto* below = find(sick.findings, "BUSBW_BELOW_EXPECTED");
  ASSERT_NE(below, nullptr);
  EXPECT_TRUE(contains(below->evidence,
                       "all_reduce 17179869184 B on 32 x NVIDIA H100 80GB HBM3 "
                       "(node[01-04]:0-7) over RING: busbw 250.0 GB/s is 65% of the expected "
                       "384.0 GB/s"))
      << below->evidence;
  EXPECT_EQ(
      fb::headline_outcome(sick).words.rfind("Warnings (BUSBW_BELOW_EXPECTED): below expectation; all_reduce "
                                             "busbw at 16 GiB: 250.0 GB/s, 65% of expected 384.0 GB/s",
                                             0),
      0U)
      << fb::headline_outcome(sick).words;
}

// A faulty host (a port down, one at 200G, no GPUDirect RDMA) lowers the bound and is named: the
// cluster's figure is held against the weakest host's bound.
TEST(NicExpectations, TheWeakestHostBoundsTheClusterAndIsNamed) {
  for (const std::size_t hosts : {2U, 4U, 16U, 128U}) {
    ClusterSpec spec{trees(hosts, "ib8", "ib8-faulty")};
    spec.bytes = size_for(hosts, "ib8");
    const auto weakest = cluster_host(hosts - 1, hosts);
    spec.busbw = 0.98 * kIb8Faulty;
    const auto ok = judged(spec);
    EXPECT_NEAR(expected_of(ok), kIb8Faulty, 1e-9) << hosts;
    EXPECT_EQ(find(ok.findings, "BUSBW_BELOW_EXPECTED"), nullptr) << hosts;
    const auto b = fb::network_bound(ok, ok.runs.front());
    ASSERT_TRUE(b.known()) << b.unknown;
    EXPECT_EQ(b.limit().host, weakest);
    EXPECT_EQ(b.limit().ports_text(), "6 x IB 400 Gb/s (staged) + 1 x IB 200 Gb/s (staged)");
    EXPECT_TRUE(contains(fb::cluster_limit(ok),
                         "; the weakest host " + weakest + ": its IB/RoCE ports bound a ring at 208.0 GB/s"))
        << fb::cluster_limit(ok);
    spec.busbw = 0.65 * kIb8Faulty;
    const auto sick = judged(spec);
    const auto* below = find(sick.findings, "BUSBW_BELOW_EXPECTED");
    ASSERT_NE(below, nullptr) << hosts;
    EXPECT_TRUE(contains(below->evidence, "the weakest host " + weakest +
                                              ": 6 x 32 GB/s (IB 400 Gb/s, staged) + 1 x 16 GB/s (IB 200 "
                                              "Gb/s, staged) = 208.0 GB/s"))
        << below->evidence;
    EXPECT_TRUE(contains(below->evidence, "GPU 3 without a port under its PCIe switch; no GPUDirect RDMA"))
        << below->evidence;
    const auto others = hosts == 2 ? cluster_host(0, hosts)
                                   : "node[" + cluster_host(0, hosts).substr(4) + "-" +
                                         cluster_host(hosts - 2, hosts).substr(4) + "]";
    EXPECT_TRUE(contains(below->evidence, "; the others (" + others + ") carry more")) << below->evidence;
    EXPECT_TRUE(contains(below->evidence, "staged: two thirds")) << below->evidence;
  }
}

// The RoCE tree: the ports' kind is RoCE, the 200G port beside no GPU is not counted, and the odd GPUs
// (no port under their switch) are said.
TEST(NicExpectations, RoceCountsThePortsBesideTheGpus) {
  ClusterSpec spec{trees(2, "roce4")};
  spec.gpu = "NVIDIA H20";
  spec.busbw = 100;
  const auto r = judged(spec);
  const auto b = fb::network_bound(r, r.runs.front());
  ASSERT_TRUE(b.known()) << b.unknown;
  EXPECT_EQ(b.limit().ports_text(), "4 x RoCE 400 Gb/s");
  EXPECT_EQ(b.limit().layout,
            "one port under each served GPU's PCIe switch; GPU 1,3,5,7 without a port under its PCIe switch");
  const auto* below = find(r.findings, "BUSBW_BELOW_EXPECTED");
  ASSERT_NE(below, nullptr);
  EXPECT_TRUE(contains(below->evidence, "is 52% of the expected 192.0 GB/s")) << below->evidence;
}

// By the algorithm NCCL's log recorded: NVLSTree on 2 hosts of 8 x H100 over 8 x 400G has its published
// figure; elsewhere, and Tree or CollNet anywhere, no figure is said instead of the ring's, and a figure
// above the ring's bound is labelled.
TEST(NicExpectations, ByTheAlgorithmThatRan) {
  ClusterSpec spec{trees(2, "ib8")};
  spec.algo = "NVLSTree";
  spec.busbw = 470;  // nccl-tests #309
  auto r = judged(spec);
  EXPECT_DOUBLE_EQ(expected_of(r), 440);
  EXPECT_EQ(find(r.findings, "BUSBW_BELOW_EXPECTED"), nullptr);
  EXPECT_EQ(find(r.findings, "BUSBW_ABOVE_NIC_SUM"), nullptr);
  spec.busbw = 300;
  EXPECT_NE(find(judged(spec).findings, "BUSBW_BELOW_EXPECTED"), nullptr);

  spec.trees = trees(4, "ib8");
  spec.busbw = 300;
  r = judged(spec);
  const auto* none = find(r.findings, "NO_EXPECTATION");
  ASSERT_NE(none, nullptr);
  EXPECT_TRUE(contains(none->evidence, "no expectation: no published figure for NVLSTree on 4 hosts"))
      << none->evidence;
  EXPECT_EQ(find(r.findings, "BUSBW_BELOW_EXPECTED"), nullptr) << "not held against the ring's bound";
  spec.busbw = 420;  // above the ring's 384: labelled, not judged
  r = judged(spec);
  const auto* above = find(r.findings, "BUSBW_ABOVE_NIC_SUM");
  ASSERT_NE(above, nullptr);
  EXPECT_TRUE(contains(above->evidence, "over NVLSTree: busbw 420.0 GB/s is above the NIC sum 384.0 GB/s"))
      << above->evidence;
  EXPECT_EQ(fb::headline_figures(r)[0].percent_text(),
            "above the NIC sum 384 GB/s: NVLSTree busbw, not comparable");

  for (const std::string algo : {"Tree", "CollNetDirect", "PAT"}) {
    spec.algo = algo;
    spec.busbw = 200;
    const auto* no = find(judged(spec).findings, "NO_EXPECTATION");
    ASSERT_NE(no, nullptr) << algo;
    EXPECT_TRUE(contains(no->evidence, "no published figure for")) << no->evidence;
  }
  // Not in NCCL's log: held against a ring's bound, and said.
  spec.algo = "";
  spec.busbw = 250;
  const auto* below = find(judged(spec).findings, "BUSBW_BELOW_EXPECTED");
  ASSERT_NE(below, nullptr);
  EXPECT_TRUE(contains(below->evidence,
                       "a ring's NIC bound (NCCL's algorithm not in its log: held against a "
                       "ring's)"))
      << below->evidence;
}

// Every collective by its traffic across hosts: the ring collectives at the ring's bound, alltoall by the
// share that leaves each host (NVIDIA's N/(N-1) x the bandwidth per GPU), sendrecv by the port at each
// host boundary.
TEST(NicExpectations, EveryCollectiveByItsTraffic) {
  const auto at = [](const std::string& collective, std::vector<std::string> t) {
    ClusterSpec spec{std::move(t)};
    spec.collective = collective;
    spec.algo = collective == "alltoall" || collective == "sendrecv" ? "" : "RING";
    spec.bytes = size_for(spec.trees.size(), "ib8");
    spec.busbw = 1;
    return expected_of(cluster_result(spec));
  };
  for (const std::string c : {"all_gather", "reduce_scatter", "broadcast"})
    EXPECT_DOUBLE_EQ(at(c, trees(4, "ib8")), kIb8);
  EXPECT_DOUBLE_EQ(at("alltoall", trees(2, "ib8")), 384.0 * 15 / (8 * 8));
  EXPECT_DOUBLE_EQ(at("alltoall", trees(128, "ib8")), 384.0 * 1023 / (8 * 1016));
  EXPECT_DOUBLE_EQ(at("sendrecv", trees(4, "ib8")), 48);
  // The faulty host's boundary GPUs (0 and 7) reach the network through staged 400G ports: 32.
  EXPECT_DOUBLE_EQ(at("sendrecv", trees(4, "ib8", "ib8-faulty")), 32);
  EXPECT_DOUBLE_EQ(at("all_gather", trees(4, "ib8", "ib8-faulty")), kIb8Faulty);
}

// Sizes too small for the bound are not judged, and NO_EXPECTATION says why.
TEST(NicExpectations, SmallSizesAreNotHeldAgainstTheBound) {
  ClusterSpec spec{trees(16, "ib8")};
  spec.bytes = kGi;  // 128 GPUs: the ring's bound holds from 8 GiB
  spec.busbw = 100;
  const auto r = judged(spec);
  EXPECT_EQ(find(r.findings, "BUSBW_BELOW_EXPECTED"), nullptr);
  const auto* none = find(r.findings, "NO_EXPECTATION");
  ASSERT_NE(none, nullptr);
  EXPECT_TRUE(contains(none->evidence,
                       "the largest size 1 GiB is below the 8 GiB the NIC figures hold from on "
                       "128 GPUs"))
      << none->evidence;
}

// What has no rate gives UNKNOWN with its reason: sockets, a plugin, a port reading no rate, no facts.
TEST(NicExpectations, NoRateIsSaidWithItsReason) {
  ClusterSpec spec{trees(2, "ib8")};
  spec.busbw = 2;
  spec.transports = {"NET/Socket/0"};
  const auto sockets = judged(spec);
  const auto* none = find(sockets.findings, "NO_EXPECTATION");
  ASSERT_NE(none, nullptr);
  EXPECT_TRUE(contains(none->evidence, "no expectation: sockets have no rate: NCCL's log: NET/Socket/0"))
      << none->evidence;
  const auto& checks = sockets.verdict->checks;
  const auto expected = std::find_if(checks.begin(), checks.end(),
                                     [](const auto& c) { return c.check == "collectives_expected"; });
  ASSERT_NE(expected, checks.end());
  EXPECT_EQ(expected->status, fb::CheckStatus::unknown);

  // A NET plugin's devices are not described here: an H100 job is held against the low end of its class's
  // datacenter network (8 GPUs a host x 24 GB/s at 200 Gb/s per GPU: 192), said so.
  spec.transports = {"NET/AWS Libfabric/0/GDRDMA"};
  const auto plugin = judged(spec);
  EXPECT_EQ(find(plugin.findings, "NO_EXPECTATION"), nullptr);
  const auto* low = find(plugin.findings, "BUSBW_BELOW_EXPECTED");
  ASSERT_NE(low, nullptr);
  EXPECT_TRUE(contains(low->evidence, "the low end of a ring's range 192.0-384.0 GB/s")) << low->evidence;
  spec.gpu = "NVIDIA GH200 480GB";  // no reference network for the class: why there is no figure
  EXPECT_TRUE(contains(find(judged(spec).findings, "NO_EXPECTATION")->evidence,
                       "a NET plugin's ports and rates are not known here"));

  auto no_rate =
      cluster_result(ClusterSpec{trees(2, "ib8"), "NVIDIA H100 80GB HBM3", "all_reduce", 16 * kGi, 300});
  no_rate.hosts[1].host.config->network.ports[2].rate_gbps = 0;
  fb::judge(no_rate);
  EXPECT_TRUE(contains(find(no_rate.findings, "NO_EXPECTATION")->evidence,
                       "NIC rate unknown: mlx5_2:1 on node02 reads no rate"));

  auto unread =
      cluster_result(ClusterSpec{trees(2, "ib8"), "NVIDIA H100 80GB HBM3", "all_reduce", 16 * kGi, 300});
  for (auto& s : unread.hosts) s.host.config.reset();
  unread.gpus[0].name = unread.gpus[8].name = "NVIDIA GH200 480GB";  // a class without a reference network
  fb::judge(unread);
  EXPECT_TRUE(contains(find(unread.findings, "NO_EXPECTATION")->evidence,
                       "NIC rate unknown: NCCL's network is IB but the hosts' ports were not read"));
}

// Evidence lists GPUs as host ranges at any size, never one by one.
TEST(NicExpectations, GpuListsAreHostRanges) {
  ClusterSpec spec{trees(128, "ib8")};
  spec.bytes = 64 * kGi;
  spec.busbw = 100;
  const auto r = judged(spec);
  EXPECT_EQ(fb::run_gpu_list(r, r.runs.front()), "node[001-128]:0-7");
  EXPECT_EQ(fb::document_gpu_ranges(r), std::vector<std::string>{"node[001-128]:0-7"});
  for (const auto& f : r.findings) EXPECT_LT(f.evidence.size(), 2000U) << f.code << ": " << f.evidence;
  EXPECT_EQ(fb::gpu_ranges({{"node-a", 0}, {"node-b", 0}}),
            (std::vector<std::string>{"node-a:0", "node-b:0"}));
  EXPECT_EQ(fb::gpu_ranges({{"n1", 0}, {"n1", 1}, {"n1", 3}, {"n2", 0}, {"n2", 1}, {"n2", 3}, {"n3", 5}}),
            (std::vector<std::string>{"n[1-2]:0-1,3", "n3:5"}));
}

// The RoCE tree reads as RoCE: link layer Ethernet, the interface from the port's GID table, the
// rate from the port's own file; the 200G port beside no GPU is named by NIC_RATE_MISMATCH.
TEST(NicExpectations, RoceTreeReadsAsRoce) {
  const auto r = nic_result("roce4");
  const auto& ports = r.host.config->network.ports;
  ASSERT_EQ(ports.size(), 5U);  // the RoCE interfaces are their ports'; lo and docker0 are virtual
  EXPECT_EQ(ports[1].name, "mlx5_1:1");
  EXPECT_EQ(ports[1].kind, "RoCE");
  EXPECT_EQ(ports[1].netdev, "enp20s0f0np0");
  EXPECT_DOUBLE_EQ(ports[1].rate_gbps, 400);
  EXPECT_TRUE(ports[1].up);
  EXPECT_DOUBLE_EQ(ports[0].rate_gbps, 200);
  const auto nic = fb::check_nics(r);
  ASSERT_EQ(nic.size(), 1U);
  EXPECT_EQ(nic[0].code, "NIC_RATE_MISMATCH");
  EXPECT_TRUE(contains(nic[0].evidence,
                       "RoCE ports at 2 rates: 400 Gb/s on 4 port(s); slower: mlx5_0:1 (RoCE, "
                       "200 Gb/s, ACTIVE/LinkUp, NUMA 1"))
      << nic[0].evidence;
}

// The per-port figures of docs/verdicts.md's "Across hosts" table: published at 400, 200 and 100 Gb/s,
// 96% of the line rate elsewhere (a rule of thumb, said), none without a rate.
TEST(NicExpectations, PerPortFiguresAsDocumented) {
  EXPECT_DOUBLE_EQ(fb::ring_port_figure(400).gbps, 48);
  EXPECT_DOUBLE_EQ(fb::ring_port_figure(200).gbps, 24);
  EXPECT_DOUBLE_EQ(fb::ring_port_figure(100).gbps, 12);
  EXPECT_FALSE(fb::ring_port_figure(400).rule_of_thumb);
  const auto xdr = fb::ring_port_figure(800);
  EXPECT_DOUBLE_EQ(xdr.gbps, 96);
  EXPECT_TRUE(xdr.rule_of_thumb);
  EXPECT_EQ(xdr.cite, "96% of the line rate as at 400G, a rule of thumb");
  EXPECT_DOUBLE_EQ(fb::ring_port_figure(0).gbps, 0);
  EXPECT_DOUBLE_EQ(fb::ring_port_figure(400).gbps * fb::kStagedShare, 32);
}
