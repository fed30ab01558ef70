// The doctor on a cluster (issue 40): the preflight's decision (engine/job_preflight), a refused or
// failed job still judged with every fact it has, the pairs of hosts judged again from the document
// (analyse/nodes_check) and the slow host named in the cluster's words and in its own section.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "analyse/hosts/cluster_limit.hpp"
#include "analyse/judge.hpp"
#include "analyse/verdict/outcome.hpp"
#include "engine/job/job_preflight.hpp"
#include "engine/pricing/doctor_budget.hpp"
#include "engine/pricing/estimates.hpp"
#include "golden.hpp"
#include "report/documents.hpp"
#include "report/judgement.hpp"

namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

const fb::Finding* find(const std::vector<fb::Finding>& findings, const std::string& code) {
  const auto it =
      std::find_if(findings.begin(), findings.end(), [&](const fb::Finding& f) { return f.code == code; });
  return it == findings.end() ? nullptr : &*it;
}

// A fake host of the GPU machine's harness: one H200 rank, NCCL 2.28.3, sockets, its NCCL_HOSTID.
fb::HostSection fake_host(int i) {
  fb::HostSection h;
  h.name = "fbhost" + std::to_string(i);
  h.ranks = {i};
  h.host = {h.name, "13.0", "13.0", {"NCCL", "2.28.3", 22803, "/usr/lib/x86_64-linux-gnu/libnccl.so.2"}, {}};
  h.gpus.push_back({0, i, "NVIDIA H200", "0000:19:00.0", 0, 90, h.name});
  h.env = {{"NCCL_HOSTID", h.name}, {"NCCL_P2P_DISABLE", "1"}, {"NCCL_SHM_DISABLE", "1"}};
  return h;
}

std::vector<fb::HostSection> fake_hosts(int n) {
  std::vector<fb::HostSection> out;
  for (int i = 0; i < n; ++i) out.push_back(fake_host(i));
  return out;
}

// What the doctor's document holds when the preflight refused the job: the hosts and every rank's
// GPU, no run (engine/doctor's fail_stage).
fb::Result refused_document(std::vector<fb::HostSection> hosts, const std::string& refusal) {
  fb::Result r;
  r.status = fb::RunStatus::refused;
  r.failure = refusal;
  for (const auto& h : hosts) r.gpus.insert(r.gpus.end(), h.gpus.begin(), h.gpus.end());
  r.hosts = std::move(hosts);
  return r;
}

}  // namespace

TEST(JobPreflight, AHostsOwnProtocolRefusesTheJobNamingHostAndVariable) {
  auto hosts = fake_hosts(2);
  hosts[1].env["NCCL_PROTO"] = "LL";
  const auto p = fb::judge_preflight(hosts, fb::RunSettings{}, "torchrun");
  ASSERT_FALSE(p.refusal.empty());
  EXPECT_TRUE(
      p.refusal.starts_with("the hosts of this torchrun job disagree on what NCCL needs alike on "
                            "every rank, so it was stopped before its first collective"))
      << p.refusal;
  EXPECT_TRUE(contains(p.refusal, "NCCL_PROTO differs between hosts: not set on fbhost0; LL on fbhost1"))
      << p.refusal;
  EXPECT_TRUE(contains(p.refusal, "--allow-mismatch")) << p.refusal;
  ASSERT_EQ(p.findings.size(), 1U);
  EXPECT_EQ(p.findings[0].severity, fb::Severity::error);
  EXPECT_EQ(p.hosts.size(), 2U);
}

TEST(JobPreflight, AllowMismatchLetsTheJobRunAndKeepsTheFinding) {
  auto hosts = fake_hosts(2);
  hosts[1].env["NCCL_PROTO"] = "LL";
  fb::RunSettings allow;
  allow.allow_mismatch = true;
  const auto p = fb::judge_preflight(hosts, allow, "mpirun");
  EXPECT_TRUE(p.refusal.empty());
  ASSERT_EQ(p.findings.size(), 1U);
  EXPECT_EQ(p.findings[0].code, "HOST_MISMATCH_ENV");
}

// What only changes how one host moves its data is a warning: the job goes on.
TEST(JobPreflight, ASpeedOnlyDifferenceIsAWarningAndTheJobRuns) {
  auto hosts = fake_hosts(3);
  hosts[2].env["NCCL_SOCKET_IFNAME"] = "eth1";
  hosts[2].host.driver = "13.1";
  const auto p = fb::judge_preflight(hosts, fb::RunSettings{}, "srun");
  EXPECT_TRUE(p.refusal.empty());
  ASSERT_EQ(p.findings.size(), 2U);
  EXPECT_EQ(find(p.findings, "HOST_MISMATCH_ENV")->severity, fb::Severity::warning);
  EXPECT_EQ(find(p.findings, "HOST_MISMATCH_DRIVER")->severity, fb::Severity::info);
  EXPECT_TRUE(fb::judge_preflight(fake_hosts(4), fb::RunSettings{}, "srun").findings.empty());
}

TEST(JobPreflight, ANcclVersionOfItsOwnRefusesTheJob) {
  auto hosts = fake_hosts(4);
  hosts[3].host.comm.version = "2.27.5";
  const auto p = fb::judge_preflight(hosts, fb::RunSettings{}, "srun");
  EXPECT_TRUE(contains(p.refusal,
                       "NCCL version differs between hosts: NCCL 2.28.3 on fbhost[0-2]; NCCL "
                       "2.27.5 on fbhost3"))
      << p.refusal;
}

// A refused job: its configuration is the fault (fix it), nothing failed on a host (no drain), and
// it is never judged as one GPU of one node.
TEST(JobPreflight, ARefusedJobIsJudgedAsAConfigurationFault) {
  auto hosts = fake_hosts(2);
  hosts[1].env["NCCL_PROTO"] = "LL";
  const auto p = fb::judge_preflight(hosts, fb::RunSettings{}, "torchrun");
  auto r = refused_document(p.hosts, p.refusal);
  fb::judge(r);
  ASSERT_NE(find(r.findings, "HOST_MISMATCH_ENV"), nullptr);
  EXPECT_EQ(find(r.findings, "HOST_MISMATCH_ENV")->severity, fb::Severity::error);
  ASSERT_NE(find(r.findings, "RUN_REFUSED"), nullptr);
  EXPECT_EQ(find(r.findings, "RUN_REFUSED")->severity, fb::Severity::info);
  EXPECT_EQ(find(r.findings, "RUN_FAILED"), nullptr);
  EXPECT_EQ(find(r.findings, "ONE_GPU"), nullptr);
  for (const auto& f : r.findings)
    EXPECT_FALSE(contains(f.evidence, "one node")) << f.code << ": " << f.evidence;
  ASSERT_TRUE(r.verdict.has_value());
  EXPECT_EQ(r.verdict->status, fb::CheckStatus::critical);
  EXPECT_EQ(r.verdict->action, fb::CheckAction::fix_configuration);
  for (const auto& s : r.hosts) ASSERT_TRUE(s.verdict.has_value()) << s.name;  // each host judged alone
  const auto outcome = fb::headline_outcome(r);
  EXPECT_EQ(outcome.key, "refused");
  EXPECT_TRUE(outcome.words.starts_with("Refused:")) << outcome.words;
  EXPECT_TRUE(contains(fb::markdown_summary(r), "CRITICAL (fix_configuration)")) << fb::markdown_summary(r);
}

// The same from a real job (tests/fixtures/results/README.md): the doctor's own judgement and the one
// `report --analyse` makes of its file again are the same (one truth), never drain.
TEST(JobPreflight, ARealRefusedJobIsJudgedAgainTheSame) {
  auto r = result_fixture("cpu-2host-torchrun-refused.json");
  const auto saved = r.findings;
  const auto saved_verdict = r.verdict;
  ASSERT_TRUE(saved_verdict.has_value());
  fb::judge(r);
  ASSERT_EQ(r.findings.size(), saved.size());
  for (std::size_t i = 0; i < saved.size(); ++i) {
    EXPECT_EQ(r.findings[i].code, saved[i].code);
    EXPECT_EQ(r.findings[i].evidence, saved[i].evidence);
  }
  EXPECT_EQ(r.verdict->status, saved_verdict->status);
  EXPECT_EQ(r.verdict->action, fb::CheckAction::fix_configuration);
  EXPECT_EQ(r.status, fb::RunStatus::refused);
  EXPECT_TRUE(r.runs.empty());
  EXPECT_EQ(find(r.findings, "HOST_MISMATCH_ENV")->evidence,
            "NCCL_PROTO differs between hosts: not set on cpu0; LL on cpu1");
}

// A job that failed in a stage (a rank killed) keeps its hosts judged; a host's fault drains.
TEST(JobPreflight, AFailedJobKeepsEveryHostsJudgement) {
  fb::Result r = refused_document(fake_hosts(2), "");
  r.status = fb::RunStatus::failed;
  r.failure =
      "collectives stage: rank 1 (fbhost1) lost its connection to rank 0 (the process died or was "
      "killed) during 'all_reduce float sum 256 MiB out-of-place'";
  fb::judge(r);
  ASSERT_NE(find(r.findings, "RUN_FAILED"), nullptr);
  EXPECT_TRUE(contains(find(r.findings, "RUN_FAILED")->evidence, "collectives stage: rank 1 (fbhost1)"));
  EXPECT_EQ(find(r.findings, "ONE_GPU"), nullptr);
  EXPECT_EQ(r.verdict->action, fb::CheckAction::drain);
  const auto& checks = r.verdict->checks;
  EXPECT_TRUE(std::any_of(checks.begin(), checks.end(),
                          [](const fb::CheckVerdict& c) { return c.check == "host_consistency"; }));
  for (const auto& s : r.hosts) EXPECT_TRUE(s.verdict.has_value()) << s.name;
}

namespace {

// 4 hosts' round robin as `nodes` writes it: fbhost2's three pairs at 0.12 GB/s, the others 0.90.
fb::Result four_hosts_one_slow() {
  fb::Result r = refused_document(fake_hosts(4), "");
  r.status = fb::RunStatus::complete;
  auto& n = r.nodes.emplace();
  n.mode = "round robin";
  n.collective = "all_reduce";
  n.bytes = 16ULL << 20;
  n.reference_gbps = 0.90;
  n.reference_from = "the fastest of 6 pairs";
  n.slow_below_gbps = 0.72;
  const std::vector<std::pair<int, int>> pairs{{0, 3}, {1, 2}, {0, 2}, {3, 1}, {0, 1}, {2, 3}};
  int round = 1;
  for (const auto& [a, b] : pairs) {
    const bool slow = a == 2 || b == 2;
    n.pairs.push_back({"fbhost" + std::to_string(a), "fbhost" + std::to_string(b), (round + 1) / 2,
                       slow ? 0.12 : 0.90, 0, ""});
    ++round;
  }
  n.named = {"fbhost2"};
  n.exclude = "fbhost2";
  return r;
}

}  // namespace

// The pairs are judged again from the document, so that the doctor and `report --analyse` agree, and
// the slow host is named in the cluster's words and in its own section, nowhere else.
TEST(JobPreflight, TheSlowHostIsNamedFromThePairsItHolds) {
  auto r = four_hosts_one_slow();
  fb::judge(r);
  const auto* slow = find(r.findings, "NODE_SLOW");
  ASSERT_NE(slow, nullptr);
  EXPECT_TRUE(slow->evidence.starts_with("fbhost2:")) << slow->evidence;
  EXPECT_EQ(fb::slow_host_words(r),
            "fbhost2 (3 pairs at 0.12 GB/s) is slow, against the reference 0.90 GB/s (slow below 0.72)");
  for (const auto& s : r.hosts) {
    const bool named = find(s.findings, "NODE_SLOW") != nullptr;
    EXPECT_EQ(named, s.name == "fbhost2") << s.name;
  }
  r.nodes->pairs[1].busbw_gbps = 0.89;  // fbhost1-fbhost2 healthy: fbhost2 is no longer most of its pairs
  r.nodes->pairs[2].busbw_gbps = 0.88;
  r.nodes->pairs[5].busbw_gbps = 0.91;
  r.nodes->named.clear();
  fb::judge(r);
  EXPECT_EQ(find(r.findings, "NODE_SLOW"), nullptr);
  EXPECT_EQ(fb::slow_host_words(r),
            "no host is slow: 6 pairs at 0.88-0.91 GB/s against the reference 0.90 GB/s (slow below 0.72)");
}

TEST(JobPreflight, TwoHostsSayWhyTheyCannotNameOne) {
  auto r = refused_document(fake_hosts(2), "");
  EXPECT_TRUE(fb::slow_host_words(r).starts_with("which host is slow cannot be told with 2 hosts"));
  r = refused_document(fake_hosts(3), "");
  EXPECT_TRUE(fb::slow_host_words(r).starts_with("the pairs of hosts were not measured"));
  EXPECT_EQ(fb::slow_host_words(fb::Result{}), "");
}

// The budget's arithmetic under a job, by hand: before the network is measured, and the nodes stage.
TEST(JobPreflight, TheNetworkIsPricedFromWhatIsKnownOfIt) {
  const auto unknown = fb::job_prior_speed(4, {});
  EXPECT_DOUBLE_EQ(unknown.busbw_gbps, 10);
  EXPECT_DOUBLE_EQ(unknown.algbw_gbps, 10 * 4 / 6.0);  // all_reduce's bus factor 2(n-1)/n
  EXPECT_DOUBLE_EQ(unknown.start_s, 1.4);
  EXPECT_DOUBLE_EQ(unknown.latency_us, 50);
  EXPECT_DOUBLE_EQ(fb::job_prior_speed(4, {{"NCCL_NET", "Socket"}}).busbw_gbps, 2);
  EXPECT_DOUBLE_EQ(fb::job_prior_speed(2, {{"NCCL_IB_DISABLE", "1"}}).busbw_gbps, 2);
  fb::FabricSpeed measured;
  measured.algbw_gbps = 0.5;
  measured.busbw_gbps = 0.75;
  measured.latency_us = 100;
  measured.start_s = 1.0;
  // 3 rounds x (1.0 s + 3 x (100 us + 16 MiB / 0.5 GB/s) + 0.5 s)
  const double op = 100e-6 + 16.0 * 1048576 / 0.5e9;
  EXPECT_NEAR(fb::estimate_nodes_s(3, 16ULL << 20, 0.5, measured), 3 * (1.0 + 3 * op + 0.5), 1e-9);
}
