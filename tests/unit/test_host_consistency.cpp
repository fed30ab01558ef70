// The same on every host (analyse/hosts/host_consistency.hpp): a job's host sections compared fact by
// fact, each difference one finding whose evidence names the hosts of each value as a Slurm hostlist.
// Hosts built here: 4 x (8 x H200, 8 x IB 400 Gb/s + 1 Ethernet port, NCCL 2.28.3, a NET plugin).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "analyse/hosts/host_consistency.hpp"
#include "analyse/hosts/must_agree.hpp"
#include "analyse/judge.hpp"
#include "analyse/verdict/verdict_contract.hpp"
#include "core/error.hpp"

namespace {

fb::NicPort port(const std::string& name, const std::string& kind, double gbps) {
  fb::NicPort p;
  p.name = name;
  p.kind = kind;
  p.rate_gbps = gbps;
  p.state = kind == "Ethernet" ? "up" : "ACTIVE";
  p.up = true;
  return p;
}

fb::HostSection healthy(const std::string& name, int first_rank) {
  fb::HostSection h;
  h.name = name;
  h.host = {name, "13.0", "13.0", {"NCCL", "2.28.3", 22803, "/usr/lib/libnccl.so.2"}, fb::HostFacts{}};
  h.host.config->network.read = true;
  for (int i = 0; i < 8; ++i) {
    h.ranks.push_back(first_rank + i);
    h.gpus.push_back({i, first_rank + i, "NVIDIA H200", "", 0, 90, name});
    h.host.config->network.ports.push_back(port("mlx5_" + std::to_string(i) + ":1", "IB", 400));
  }
  h.host.config->network.ports.push_back(port("eno1", "Ethernet", 100));
  h.env = {{"NCCL_IB_HCA", "mlx5"}, {"NCCL_SOCKET_IFNAME", "eno1"}};
  h.net_plugin = "/opt/hpcx/nccl_rdma_sharp_plugin/lib/libnccl-net.so";
  return h;
}

std::vector<fb::HostSection> four_hosts() {
  return {healthy("node01", 0), healthy("node02", 8), healthy("node03", 16), healthy("node04", 24)};
}

std::vector<fb::Finding> with_code(const std::vector<fb::Finding>& all, const std::string& code) {
  std::vector<fb::Finding> out;
  std::copy_if(all.begin(), all.end(), std::back_inserter(out),
               [&](const fb::Finding& f) { return f.code == code; });
  return out;
}

// The only finding of `hosts`, which must have `code`.
fb::Finding only(const std::vector<fb::HostSection>& hosts, const std::string& code) {
  const auto all = fb::compare_hosts(hosts);
  EXPECT_EQ(all.size(), 1U);
  const auto mine = with_code(all, code);
  return mine.empty() ? fb::Finding{} : mine.front();
}

}  // namespace

TEST(HostConsistency, IdenticalHostsGiveNoFinding) {
  EXPECT_TRUE(fb::compare_hosts(four_hosts()).empty());
  EXPECT_TRUE(fb::compare_hosts({}).empty());
  auto one = four_hosts();
  one.resize(1);
  EXPECT_TRUE(fb::compare_hosts(one).empty());
}

// NCCL refuses ranks of different versions when they connect (init.cc): an error, the job's to fix.
TEST(HostConsistency, NcclVersionIsAnErrorNamingTheHostsOfEachVersion) {
  auto hosts = four_hosts();
  hosts[3].host.comm.version = "2.27.5";
  hosts[3].host.comm.path = "/opt/nccl-2.27.5/lib/libnccl.so.2";
  const auto f = only(hosts, "HOST_MISMATCH_NCCL");
  EXPECT_EQ(f.severity, fb::Severity::error);
  EXPECT_EQ(f.evidence,
            "NCCL version differs between hosts: NCCL 2.28.3 on node[01-03]; NCCL 2.27.5 on node04");
  EXPECT_EQ(f.expected, "the same NCCL version on every host");
  EXPECT_TRUE(f.hint.starts_with("fix the job's configuration: install the same NCCL on every host"))
      << f.hint;
  EXPECT_NE(f.hint.find("Mismatched NCCL version detected"), std::string::npos) << f.hint;
}

TEST(HostConsistency, SameNcclVersionFromAnotherFileIsInfo) {
  auto hosts = four_hosts();
  hosts[1].host.comm.path = "/venv/lib/python3.12/site-packages/nvidia/nccl/lib/libnccl.so.2";
  const auto f = only(hosts, "HOST_MISMATCH_NCCL");
  EXPECT_EQ(f.severity, fb::Severity::info);
  EXPECT_EQ(f.evidence,
            "NCCL library file differs between hosts: /usr/lib/libnccl.so.2 on node[01,03-04]; "
            "/venv/lib/python3.12/site-packages/nvidia/nccl/lib/libnccl.so.2 on node02");
}

TEST(HostConsistency, DriverMajorIsAWarningAMinorInfo) {
  auto hosts = four_hosts();
  hosts[2].host.driver = "13.1";
  auto f = only(hosts, "HOST_MISMATCH_DRIVER");
  EXPECT_EQ(f.severity, fb::Severity::info);
  EXPECT_EQ(f.evidence, "driver version differs between hosts: 13.0 on node[01-02,04]; 13.1 on node03");
  hosts[2].host.driver = "12.9";
  f = only(hosts, "HOST_MISMATCH_DRIVER");
  EXPECT_EQ(f.severity, fb::Severity::warning);
  hosts[2].host.driver = "13.0";
  hosts[0].host.runtime = "12.8";
  f = only(hosts, "HOST_MISMATCH_DRIVER");
  EXPECT_EQ(f.evidence, "runtime version differs between hosts: 13.0 on node[02-04]; 12.8 on node01");
  EXPECT_EQ(f.severity, fb::Severity::warning);
}

TEST(HostConsistency, UnknownFactsAreNotDifferences) {
  auto hosts = four_hosts();
  hosts[0].host.comm = {};  // NCCL not loaded there
  hosts[1].host.driver.clear();
  hosts[2].gpus.clear();  // GPUs not listed
  EXPECT_TRUE(fb::compare_hosts(hosts).empty());
}

// One finding per variable: an error for what every rank must have alike (analyse/hosts/must_agree.hpp), a
// warning for what only changes how a host moves its data.
TEST(HostConsistency, EachNcclVariableThatDiffersIsOneFinding) {
  auto hosts = four_hosts();
  hosts[1].env.erase("NCCL_IB_HCA");
  hosts[2].env["NCCL_IB_HCA"] = "mlx5_0";
  hosts[3].env["NCCL_ALGO"] = "Ring";
  const auto all = fb::compare_hosts(hosts);
  const auto env = with_code(all, "HOST_MISMATCH_ENV");
  ASSERT_EQ(all.size(), 2U);
  ASSERT_EQ(env.size(), 2U);
  EXPECT_EQ(env[0].evidence, "NCCL_ALGO differs between hosts: not set on node[01-03]; Ring on node04");
  EXPECT_EQ(env[0].severity, fb::Severity::error);
  EXPECT_TRUE(env[0].hint.starts_with("fix the job's configuration: set NCCL_* in the job")) << env[0].hint;
  EXPECT_NE(env[0].hint.find("NVIDIA/nccl#1136"), std::string::npos) << env[0].hint;
  EXPECT_EQ(env[1].evidence,
            "NCCL_IB_HCA differs between hosts: mlx5 on node[01,04]; not set on node02; mlx5_0 on node03");
  EXPECT_EQ(env[1].severity, fb::Severity::warning);
  EXPECT_EQ(env[1].expected, "NCCL_IB_HCA the same on every host");
  EXPECT_NE(env[1].hint.find("NCCL_* must be the same on every rank"), std::string::npos);
}

// The list itself: what decides a choice every rank makes alike, and nothing that is per host.
TEST(HostConsistency, MustAgreeListsTheChoicesRanksMakeAlike) {
  for (const char* name : {"NCCL_ALGO",
                           "NCCL_PROTO",
                           "NCCL_BUFFSIZE",
                           "NCCL_NTHREADS",
                           "NCCL_MAX_NCHANNELS",
                           "NCCL_MIN_NCHANNELS",
                           "NCCL_NVLS_ENABLE",
                           "NCCL_COLLNET_ENABLE",
                           "NCCL_NET",
                           "NCCL_IB_DISABLE",
                           "NCCL_NET_PLUGIN",
                           "NCCL_TUNER_PLUGIN",
                           "NCCL_P2P_NET_CHUNKSIZE",
                           "NCCL_P2P_PCI_CHUNKSIZE",
                           "NCCL_P2P_NVL_CHUNKSIZE",
                           "NCCL_CHUNK_SIZE",
                           "NCCL_P2P_LL_THRESHOLD",
                           "NCCL_LL_BUFFSIZE",
                           "NCCL_LL128_BUFFSIZE",
                           "NCCL_ALLOC_P2P_NET_LL_BUFFERS"})
    EXPECT_NE(fb::must_agree(name), nullptr) << name;
  for (const char* name : {"NCCL_IB_HCA", "NCCL_SOCKET_IFNAME", "NCCL_P2P_DISABLE", "NCCL_SHM_DISABLE",
                           "NCCL_HOSTID", "NCCL_DEBUG", "NCCL_CROSS_NIC", "NCCL_PROTOCOL"})
    EXPECT_EQ(fb::must_agree(name), nullptr) << name;
  for (const auto& m : fb::kMustAgreeEnv) {
    EXPECT_TRUE(fb::compared_across_hosts(m.name)) << m.name;  // never a per-host variable
    EXPECT_FALSE(m.why.empty()) << m.name;
  }
}

TEST(HostConsistency, VariablesThatDifferPerHostByDesignAreNotCompared) {
  auto hosts = four_hosts();
  for (std::size_t i = 0; i < hosts.size(); ++i) {
    const std::string n = std::to_string(i);
    hosts[i].env["NCCL_HOSTID"] = "host-" + n;
    hosts[i].env["NCCL_DEBUG_FILE"] = "/tmp/nccl." + n + ".log";
    hosts[i].env["NCCL_TOPO_DUMP_FILE"] = "/tmp/topo." + n + ".xml";
    hosts[i].env["CUDA_VISIBLE_DEVICES"] = n;  // not NCCL's
  }
  hosts[0].env["NCCL_DEBUG"] = "INFO";
  hosts[0].env["NCCL_DEBUG_SUBSYS"] = "INIT,NET";
  EXPECT_TRUE(fb::compare_hosts(hosts).empty());
  EXPECT_FALSE(fb::compared_across_hosts("NCCL_HOSTID"));
  EXPECT_FALSE(fb::compared_across_hosts("NCCL_DEBUG_TIMESTAMP_FORMAT"));
  EXPECT_TRUE(fb::compared_across_hosts("NCCL_SOCKET_IFNAME"));
  EXPECT_TRUE(fb::compared_across_hosts("RCCL_MSCCL_ENABLE"));
  EXPECT_FALSE(fb::compared_across_hosts("HSA_ENABLE_SDMA"));
}

TEST(HostConsistency, GpuCountOrModelIsAWarning) {
  auto hosts = four_hosts();
  hosts[2].gpus.pop_back();
  auto f = only(hosts, "HOST_MISMATCH_GPUS");
  EXPECT_EQ(f.severity, fb::Severity::warning);
  EXPECT_EQ(f.evidence,
            "GPU count or model differs between hosts: 8 x NVIDIA H200 on node[01-02,04]; 7 x NVIDIA H200 on "
            "node03");
  hosts = four_hosts();
  for (int i = 4; i < 8; ++i) hosts[1].gpus[i].name = "NVIDIA H100 80GB HBM3";
  f = only(hosts, "HOST_MISMATCH_GPUS");
  EXPECT_EQ(f.evidence,
            "GPU count or model differs between hosts: 8 x NVIDIA H200 on node[01,03-04]; "
            "4 x NVIDIA H200 + 4 x NVIDIA H100 80GB HBM3 on node02");
}

TEST(HostConsistency, IbPortsCountAndRatesAreAWarningEthernetInfo) {
  auto hosts = four_hosts();
  hosts[3].host.config->network.ports[7].rate_gbps = 200;
  hosts[2].host.config->network.ports[0].up = false;
  auto f = only(hosts, "HOST_MISMATCH_NICS");
  EXPECT_EQ(f.severity, fb::Severity::warning);
  EXPECT_EQ(
      f.evidence,
      "up IB/RoCE ports differ between hosts: 8 x IB 400 Gb/s on node[01-02]; 7 x IB 400 Gb/s on node03; "
      "7 x IB 400 Gb/s + 1 x IB 200 Gb/s on node04");
  hosts = four_hosts();
  hosts[0].host.config->network.ports.push_back(port("eno2", "Ethernet", 1));
  f = only(hosts, "HOST_MISMATCH_NICS");
  EXPECT_EQ(f.severity, fb::Severity::info);
  EXPECT_EQ(f.evidence,
            "up Ethernet ports differ between hosts: 1 x Ethernet 100 Gb/s on node[02-04]; "
            "1 x Ethernet 100 Gb/s + 1 x Ethernet 1 Gb/s on node01");
}

TEST(HostConsistency, AHostWhoseNetworkWasNotReadIsNotCompared) {
  auto hosts = four_hosts();
  hosts[1].host.config->network = {};  // not looked for: no ports, read false
  hosts[2].host.config.reset();        // no host facts at all
  EXPECT_TRUE(fb::compare_hosts(hosts).empty());
  hosts.resize(3);  // node01 is the only host read: nothing to compare it with
  hosts[0].host.config->network.ports.pop_back();
  EXPECT_TRUE(fb::compare_hosts(hosts).empty());
}

TEST(HostConsistency, NetPluginOnSomeHostsIsAWarningAnotherFileInfo) {
  auto hosts = four_hosts();
  hosts[3].net_plugin.clear();
  auto f = only(hosts, "HOST_MISMATCH_NET_PLUGIN");
  EXPECT_EQ(f.severity, fb::Severity::warning);
  EXPECT_EQ(f.evidence,
            "NCCL NET plugin differs between hosts: /opt/hpcx/nccl_rdma_sharp_plugin/lib/libnccl-net.so on "
            "node[01-03]; none on node04");
  hosts[3].net_plugin = "/usr/lib/libnccl-net.so";
  f = only(hosts, "HOST_MISMATCH_NET_PLUGIN");
  EXPECT_EQ(f.severity, fb::Severity::info);
}

// The rules run with the others (analyse_result) and their check is host_consistency, not host.
TEST(HostConsistency, FindingsReachTheVerdictUnderTheirOwnCheck) {
  fb::Result r;
  r.status = fb::RunStatus::complete;
  r.hosts = four_hosts();
  r.hosts[3].host.comm.version = "2.27.5";
  fb::judge(r);
  ASSERT_EQ(with_code(r.findings, "HOST_MISMATCH_NCCL").size(), 1U);
  ASSERT_TRUE(r.verdict.has_value());
  const auto& checks = r.verdict->checks;
  const auto mine = std::find_if(checks.begin(), checks.end(),
                                 [](const fb::CheckVerdict& c) { return c.check == "host_consistency"; });
  ASSERT_NE(mine, checks.end());
  EXPECT_EQ(mine->status, fb::CheckStatus::critical);
  EXPECT_EQ(mine->action, fb::CheckAction::fix_configuration);  // the job's to fix: never drain the hosts
  EXPECT_EQ(r.verdict->action, fb::CheckAction::fix_configuration);
  EXPECT_EQ(mine->codes, std::vector<std::string>{"HOST_MISMATCH_NCCL"});
  for (const auto& c : checks)
    if (c.check == "host") EXPECT_TRUE(c.codes.empty());
  r.hosts.resize(1);  // one host: the check does not apply
  fb::judge(r);
  EXPECT_TRUE(std::none_of(r.verdict->checks.begin(), r.verdict->checks.end(),
                           [](const fb::CheckVerdict& c) { return c.check == "host_consistency"; }));
}

// One job, one set of options: a host started with other arguments is a difference the preflight refuses.
TEST(HostConsistency, AHostWithItsOwnCommandLineIsAnError) {
  auto hosts = four_hosts();
  for (auto& h : hosts) h.command = {"nodes", "--size", "16M"};
  EXPECT_TRUE(fb::compare_hosts(hosts).empty());
  hosts[2].command = {"nodes", "--size", "16M", "--nccl-lib", "/opt/nccl/libnccl.so.2"};
  hosts[3].command.clear();  // an older build's section: not known, so not a difference
  const auto f = only(hosts, "HOST_MISMATCH_COMMAND");
  EXPECT_EQ(f.severity, fb::Severity::error);
  EXPECT_EQ(f.evidence,
            "the command line differs between hosts: `nodes --size 16M` on node[01-02]; `nodes --size 16M "
            "--nccl-lib /opt/nccl/libnccl.so.2` on node03");
}

namespace {

// A 2-host job that ended when a rank ran past --timeout, its hosts as given.
fb::Result hung_job(std::vector<fb::HostSection> hosts, const std::string& failure) {
  fb::Result r;
  r.status = fb::RunStatus::failed;
  r.failure = failure;
  r.hosts = std::move(hosts);
  return r;
}

const fb::CheckVerdict* check_of(const fb::Result& r, const std::string& name) {
  for (const auto& c : r.verdict->checks)
    if (c.check == name) return &c;
  return nullptr;
}

}  // namespace

// Every hang explained: a job that hung while its hosts differ in an NCCL setting (here one that is not
// on the must-agree list) is the configuration's to fix, with the difference named as the likely cause.
TEST(HostConsistency, AHangBetweenHostsThatDifferIsTheConfigurations) {
  auto hosts = four_hosts();
  hosts.resize(2);
  hosts[1].env["NCCL_IB_SPLIT_DATA_ON_QPS"] = "1";
  const std::string hang =
      fmt::format("collectives stage: rank 8 (node02) {} 30 s during 'alltoall'", fb::kRanPastTimeout);
  auto r = hung_job(hosts, hang);
  fb::judge(r);
  const auto explained = with_code(r.findings, "HOST_MISMATCH_HANG");
  ASSERT_EQ(explained.size(), 1U);
  EXPECT_EQ(explained[0].severity, fb::Severity::error);
  EXPECT_NE(
      explained[0].evidence.find("NCCL_IB_SPLIT_DATA_ON_QPS differs between hosts: not set on node01; 1 on "
                                 "node02; the likely cause"),
      std::string::npos)
      << explained[0].evidence;
  const auto failed = with_code(r.findings, "RUN_FAILED");
  ASSERT_EQ(failed.size(), 1U);
  EXPECT_EQ(failed[0].severity, fb::Severity::warning) << "no host drained for the job's configuration";
  EXPECT_EQ(r.verdict->action, fb::CheckAction::fix_configuration);
  ASSERT_NE(check_of(r, "host_consistency"), nullptr);
  EXPECT_EQ(check_of(r, "host_consistency")->status, fb::CheckStatus::critical);
  // The same hang between hosts that agree: a host's fault, as before (drain).
  auto same = hung_job(four_hosts(), hang);
  fb::judge(same);
  EXPECT_TRUE(with_code(same.findings, "HOST_MISMATCH_HANG").empty());
  EXPECT_EQ(same.verdict->action, fb::CheckAction::drain);
  // A rank killed (no hang) between hosts that differ: the difference stays a warning, the run drains.
  auto killed = hung_job(hosts, "collectives stage: rank 8 (node02) lost its connection to rank 0");
  fb::judge(killed);
  EXPECT_TRUE(with_code(killed.findings, "HOST_MISMATCH_HANG").empty());
  EXPECT_EQ(killed.verdict->action, fb::CheckAction::drain);
}
