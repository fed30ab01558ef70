// The one judge (analyse/judge.hpp): which rows serve which results and scopes, a host section judged
// as a host of its job, the host a finding is about, and each host's verdict read from the judge's
// output (never from evidence text).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "analyse/host_judgement.hpp"
#include "analyse/judge.hpp"
#include "analyse/rule_table.hpp"
#include "core/file_io.hpp"
#include "golden.hpp"

namespace {

bool has_code(const std::vector<fb::Finding>& findings, const std::string& prefix) {
  return std::any_of(findings.begin(), findings.end(),
                     [&](const fb::Finding& f) { return f.code.starts_with(prefix); });
}

fb::HostSection section(const std::string& name, int rank) {
  fb::HostSection s;
  s.name = name;
  s.ranks = {rank};
  s.gpus = {{0, rank, "NVIDIA H200", "0000:19:00.0", 1, 90, name}};
  s.host.comm.version = "2.28.3";
  s.host.config.emplace();
  s.env = {{"NCCL_SOCKET_IFNAME", "eth0"}};
  return s;
}

}  // namespace

TEST(Judge, AResultThatMeasuredNothingIsNotJudgedByTheRulesOfMeasurements) {
  auto r = result_fixture("synthetic-1gpu.json");
  r.runs.clear();
  r.p2p.clear();
  r.doctor.reset();
  r.env["NCCL_ALGO"] = "Ring";
  fb::judge(r);
  EXPECT_FALSE(has_code(r.findings, "ONE_GPU"));
  EXPECT_FALSE(has_code(r.findings, "ENV_"));  // `topo` runs no NCCL: its settings change nothing there
  ASSERT_TRUE(r.verdict.has_value());
  EXPECT_EQ(r.rules_version, fb::kRulesVersion);
}

TEST(Judge, AMeasuredResultHasItsSettingsAndItsOneGpuJudged) {
  auto r = result_fixture("synthetic-1gpu.json");
  r.p2p.clear();  // its collectives on GPU 0 alone
  r.env["NCCL_ALGO"] = "Ring";
  fb::judge(r);
  EXPECT_TRUE(has_code(r.findings, "ENV_NCCL_OVERRIDE"));
  EXPECT_TRUE(has_code(r.findings, "ONE_GPU"));
}

TEST(Judge, EachHostSectionIsJudgedAsAHostOfItsJob) {
  fb::Result r;
  r.status = fb::RunStatus::complete;
  r.hosts = {section("fbhost0", 0), section("fbhost1", 1)};
  for (const auto& s : r.hosts) r.gpus.push_back(s.gpus.front());
  fb::judge(r);
  for (const auto& s : r.hosts) {
    ASSERT_TRUE(s.verdict.has_value()) << s.name;
    EXPECT_FALSE(has_code(s.findings, "ONE_GPU")) << s.name;
    for (const auto& f : s.findings) {
      EXPECT_EQ(f.host, s.name) << f.code;
      EXPECT_EQ(f.evidence.find("one node"), std::string::npos) << f.evidence;
      EXPECT_EQ(f.evidence.find("1 GPU(s)"), std::string::npos) << f.evidence;
    }
    // A network setting acts on a job across hosts: it is a setting that changes this run.
    const auto env = std::find_if(s.findings.begin(), s.findings.end(),
                                  [](const fb::Finding& f) { return f.code == "ENV_NCCL_OVERRIDE"; });
    ASSERT_NE(env, s.findings.end()) << s.name;
    EXPECT_EQ(env->severity, fb::Severity::warning) << env->evidence;
  }
}

// The job's "hosts" check names each host at the worst status with its codes, each code once though
// two of the host's checks cite it.
TEST(Judge, TheHostsCheckNamesEachCodeOfAHostOnce) {
  fb::Result job;
  job.verdict = fb::Verdict{};
  for (const char* name : {"fbhost0", "fbhost1"}) {
    fb::HostSection s;  // as written, without the host's facts: kept, not judged again
    s.name = name;
    s.verdict = fb::Verdict{};
    job.hosts.push_back(s);
  }
  auto& v = *job.hosts[0].verdict;
  v.status = fb::CheckStatus::warning;
  v.action = fb::CheckAction::investigate;
  for (const char* check : {"settings", "network"})
    v.checks.push_back(
        {check, fb::CheckStatus::warning, fb::CheckAction::investigate, {"ENV_NCCL_OVERRIDE"}, ""});
  fb::judge_host_sections(job, {});
  ASSERT_FALSE(job.verdict->checks.empty());
  EXPECT_EQ(job.verdict->checks.back().evidence, "1 of 2 hosts at WARNING: fbhost0 (ENV_NCCL_OVERRIDE)");
  EXPECT_EQ(job.verdict->checks.back().codes, (std::vector<std::string>{"ENV_NCCL_OVERRIDE"}));
}

TEST(Judge, AFindingOfAJobNamesTheOneHostWhoseGpusItNames) {
  auto r = result_fixture("synthetic-2host-socket.json");
  fb::judge(r);
  r.findings.push_back({"GPU_LOST", fb::Severity::error, "GPU node-b:0 fell off the bus", "", ""});
  r.findings.push_back({"DATA_WRONG", fb::Severity::error, "node-a:0 and node-b:1 disagree", "", ""});
  r.findings.push_back({"RUN_FAILED", fb::Severity::error, "node-bb:0 is no host of this job", "", ""});
  fb::name_finding_hosts(r);
  const auto n = r.findings.size();
  EXPECT_EQ(r.findings[n - 3].host, "node-b");
  EXPECT_EQ(r.findings[n - 2].host, "");  // several hosts: the whole job's
  EXPECT_EQ(r.findings[n - 1].host, "");  // no host of the job
}

TEST(Judge, EachHostsVerdictReadsTheHostAFindingIsAbout) {
  auto r = result_fixture("synthetic-2host-socket.json");
  // A class without a reference datacenter network: its sockets are a warning (NET_SOCKET), not the
  // error SIGNATURE_SOCKETS H200 hosts would get, so that the finding added below decides.
  for (auto& g : r.gpus) g.name = "NVIDIA GH200 480GB";
  fb::judge(r);
  EXPECT_NE(fb::host_verdict(r, "node-a").status, fb::CheckStatus::critical);
  // The host field decides, not the text: evidence naming node-b, about node-a.
  r.findings.push_back({"GPU_LOST", fb::Severity::error, "GPU node-b:0 fell off the bus", "", "", "node-a"});
  EXPECT_EQ(fb::host_verdict(r, "node-a").status, fb::CheckStatus::critical);
  EXPECT_NE(fb::host_verdict(r, "node-b").status, fb::CheckStatus::critical);
}

TEST(Judge, EveryRowSaysWhatItRaisesAndServes) {
  for (const auto& row : fb::rule_rows()) {
    EXPECT_FALSE(row.codes.empty()) << row.name;
    EXPECT_FALSE(row.serves.empty()) << row.name;
    EXPECT_NE(row.applies, nullptr) << row.name;
    EXPECT_NE(row.judge, nullptr) << row.name;
  }
}

TEST(Judge, TheDocsTableIsTheRows) {
  const std::string path = std::string(FB_FIXTURE_DIR) + "/../../docs/verdicts.md";
  const std::string doc = fb::read_file(path);
  const auto begin = doc.find(fb::kRuleTableBegin);
  const auto end = doc.find(fb::kRuleTableEnd);
  ASSERT_NE(begin, std::string::npos) << "docs/verdicts.md lost the rule table's first marker";
  ASSERT_NE(end, std::string::npos) << "docs/verdicts.md lost the rule table's last marker";
  const auto first = begin + std::string(fb::kRuleTableBegin).size() + 1;
  if (std::getenv("FB_UPDATE_GOLDEN") != nullptr) {
    fb::write_file_atomically(path, doc.substr(0, first) + fb::rule_table_markdown() + doc.substr(end));
    return;
  }
  EXPECT_EQ(doc.substr(first, end - first), fb::rule_table_markdown())
      << "regenerate it: FB_UPDATE_GOLDEN=1 build/tests/unit_tests "
         "--gtest_filter=Judge.TheDocsTableIsTheRows";
}
