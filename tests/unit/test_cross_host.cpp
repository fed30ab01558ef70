// Results that span hosts (issue 29): GPUs named host:index, no ONE_GPU for two hosts' GPU 0, and
// cross-host figures judged by the hosts' NICs or "no expectation" with its reason, never by one host's
// NVLink.
#include <gtest/gtest.h>

#include <sstream>

#include "analyse/expect/expectations.hpp"
#include "analyse/judge.hpp"
#include "analyse/scope/gpu_names.hpp"
#include "analyse/verdict/headline_figures.hpp"
#include "cluster_fixtures.hpp"
#include "golden.hpp"
#include "report/console_reporter.hpp"
#include "report/documents.hpp"
#include "report/html/html_report.hpp"

namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

const fb::Finding* find(const std::vector<fb::Finding>& findings, const std::string& code) {
  for (const auto& f : findings)
    if (f.code == code) return &f;
  return nullptr;
}

fb::Result two_hosts() {
  auto r = result_fixture("synthetic-2host-socket.json");
  fb::judge(r);
  return r;
}

// 16 x H200 on 2 hosts of the ib8 tree (8 x 400G IB each), an all_reduce ring at `busbw` GB/s at 16 GiB.
fb::Result sixteen_on_two_hosts(double busbw) {
  ClusterSpec spec{trees(2, "ib8")};
  spec.gpu = "NVIDIA H200";
  spec.busbw = busbw;
  auto r = cluster_result(spec);
  fb::judge(r);
  return r;
}

}  // namespace

TEST(CrossHost, GpusAreNamedHostColonIndex) {
  const auto r = two_hosts();
  EXPECT_TRUE(fb::spans_hosts(r));
  EXPECT_EQ(fb::document_gpu_names(r), (std::vector<std::string>{"node-a:0", "node-b:0"}));
  EXPECT_EQ(fb::run_gpu_list(r, r.runs.front()), "node-a:0,node-b:0");
  EXPECT_EQ(fb::host_gpu_names(r, "node-b"), std::vector<std::string>{"node-b:0"});
  const auto one = result_fixture("h200x2-doctor-quick.json");  // one host: the names stay GPU<index>
  EXPECT_FALSE(fb::spans_hosts(one));
  EXPECT_EQ(fb::document_gpu_names(one), (std::vector<std::string>{"GPU0", "GPU1"}));
  EXPECT_EQ(fb::run_gpu_list(one, one.runs.front()), "0,1");
}

// The repro: 1.8 GB/s over sockets between two hosts was "1% of the expected 267.0 GB/s".
TEST(CrossHost, SocketRunIsNeverHeldAgainstNvlink) {
  const auto r = two_hosts();
  EXPECT_EQ(find(r.findings, "ONE_GPU"), nullptr) << "two hosts' GPU 0 are two GPUs";
  EXPECT_EQ(find(r.findings, "BUSBW_BELOW_CEILING"), nullptr);
  EXPECT_EQ(find(r.findings, "BUSBW_BELOW_EXPECTED"), nullptr);
  EXPECT_EQ(find(r.findings, "NCCL_FALLBACK"), nullptr) << "NET is how hosts meet";
  const auto* socket = find(r.findings, "NET_SOCKET");
  ASSERT_NE(socket, nullptr);
  EXPECT_EQ(
      socket->evidence,
      "all_reduce on node-a:0,node-b:0: NCCL's network connections went over TCP sockets (NET/Socket/0)");
  const auto* none = find(r.findings, "NO_EXPECTATION");
  ASSERT_NE(none, nullptr);
  EXPECT_TRUE(contains(none->evidence, "no expectation: sockets have no rate: NCCL's log: NET/Socket/0"))
      << none->evidence;
  EXPECT_TRUE(contains(none->evidence, "node-a:0, node-b:0")) << none->evidence;
  for (const auto& f : r.findings)
    for (const auto* text : {&f.evidence, &f.expected})
      for (const char* nvlink : {"NVLink", "NV18", "267.0", "path ceiling"})
        EXPECT_FALSE(contains(*text, nvlink)) << f.code << ": " << *text;
  for (const auto& h : fb::headline_figures(r)) {
    EXPECT_EQ(h.ceiling, 0) << h.figure;
    EXPECT_EQ(h.expected, 0) << h.figure;
  }
  ASSERT_TRUE(r.verdict);
  for (const auto& c : r.verdict->checks) EXPECT_NE(c.check, "collectives_ceiling");
}

TEST(CrossHost, TheNicsJudgeWithoutTheRingCeiling) {
  const auto slow = sixteen_on_two_hosts(200);
  const auto* below = find(slow.findings, "BUSBW_BELOW_EXPECTED");
  ASSERT_NE(below, nullptr);
  EXPECT_TRUE(contains(below->evidence, "of the expected 384.0 GB/s")) << below->evidence;
  EXPECT_TRUE(contains(below->evidence, "(node[01-02]:0-7)")) << below->evidence;
  EXPECT_FALSE(contains(below->evidence, "path ceiling")) << below->evidence;
  EXPECT_EQ(find(slow.findings, "NO_EXPECTATION"), nullptr);
  EXPECT_EQ(find(slow.findings, "BUSBW_BELOW_CEILING"), nullptr);
  EXPECT_EQ(find(sixteen_on_two_hosts(380).findings, "BUSBW_BELOW_EXPECTED"), nullptr);
}

TEST(CrossHost, OneGpuStillSaidOnOneHost) {
  auto r = result_fixture("h200x1-doctor.json");
  fb::judge(r);
  EXPECT_NE(find(r.findings, "ONE_GPU"), nullptr);
}

TEST(CrossHost, ReportsNameTheHostsGpus) {
  const auto r = two_hosts();
  const auto md = fb::markdown_summary(r);
  EXPECT_TRUE(contains(md, "hosts node-a, node-b · GPUs node-a:0, node-b:0")) << md.substr(0, 400);
  EXPECT_TRUE(contains(md, "all_reduce on node-a:0,node-b:0"));
  EXPECT_TRUE(contains(fb::html_report(r, nullptr, std::nullopt), "GPUs node-a:0, node-b:0"));
  std::ostringstream out;
  fb::ConsoleReporter console(out);
  console.begin(r);
  EXPECT_TRUE(contains(out.str(), "# hosts node-a, node-b,")) << out.str();
  EXPECT_TRUE(contains(out.str(), "rank 1: GPU node-b:0 ")) << out.str();
}

// A real run across 2 fake hosts on one H200 (scripts/fake-hosts.sh, NETNS=1, torchrun; NCCL over
// sockets on veth pairs): each host's GPU is index 0, as on two real single-GPU hosts.
TEST(CrossHost, RealTorchrunRunOnTwoFakeHosts) {
  auto r = result_fixture("h200x1-fakehosts-torchrun-2x1.json");
  fb::judge(r);
  EXPECT_EQ(fb::document_gpu_names(r), (std::vector<std::string>{"fbhost0:0", "fbhost1:0"}));
  EXPECT_EQ(find(r.findings, "ONE_GPU"), nullptr);
  EXPECT_EQ(find(r.findings, "BUSBW_BELOW_CEILING"), nullptr);
  const auto* none = find(r.findings, "NO_EXPECTATION");
  // Neither NCCL's transports nor the hosts' ports are in this document: an H200 job is held against its
  // class's datacenter network from the sizes the NIC figures hold for, which this run's 64 MiB is below.
  ASSERT_NE(none, nullptr);
  EXPECT_TRUE(contains(none->evidence, "no expectation: the largest size 64 MiB is below the 1 GiB"))
      << none->evidence;
  EXPECT_TRUE(contains(none->evidence, "(fbhost[0-1]:0; model H200)")) << none->evidence;  // host ranges
  for (const auto& f : r.findings)
    EXPECT_FALSE(contains(f.evidence, "NVLink")) << f.code << ": " << f.evidence;
}

// The fake hosts as the doctor records them: NCCL's NET/Socket transports, or each host's section with
// the GPU machine's own network (the h200-net capture: virtio Ethernet, no rate, no IB/RoCE port). Both
// say that sockets have no rate.
TEST(CrossHost, FakeHostsSayThatSocketsHaveNoRate) {
  auto logged = result_fixture("h200x1-fakehosts-torchrun-2x1.json");
  logged.runs.front().nccl_transports = {"NET/Socket/0", "NET/Socket/0/Shared"};
  fb::judge(logged);
  const auto* none = find(logged.findings, "NO_EXPECTATION");
  ASSERT_NE(none, nullptr);
  EXPECT_TRUE(contains(none->evidence,
                       "no expectation: sockets have no rate: NCCL's log: NET/Socket/0, "
                       "NET/Socket/0/Shared"))
      << none->evidence;

  auto described = result_fixture("h200x1-fakehosts-torchrun-2x1.json");
  for (const std::string host : {"fbhost0", "fbhost1"}) {
    auto s = tree_section("h200-net");
    s.name = host;
    described.hosts.push_back(s);
  }
  fb::judge(described);
  none = find(described.findings, "NO_EXPECTATION");
  ASSERT_NE(none, nullptr);
  EXPECT_TRUE(contains(none->evidence,
                       "no expectation: sockets have no rate: no up IB/RoCE port on "
                       "fbhost[0-1]: NCCL uses TCP sockets"))
      << none->evidence;
}
