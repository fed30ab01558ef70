// The gate a scheduler uses (analyse/verdict/gate_policy.hpp, docs/verdicts.md "The gate"): the prolog's one
// all_reduce judged against its expectation, far below it an error that drains; --fail-on; the
// policy table as data and in the docs; the verdict a failed or unfinished doctor leaves behind.
#include <gtest/gtest.h>

#include <cstdlib>
#include <regex>
#include <set>
#include <sstream>

#include "analyse/judge.hpp"
#include "analyse/verdict/gate_policy.hpp"
#include "core/file_io.hpp"
#include "core/text.hpp"
#include "engine/doctor/doctor_failure.hpp"
#include "golden.hpp"

namespace {

fb::Result judged(fb::Result r) {
  fb::judge(r);
  return r;
}

const fb::Finding* find_code(const fb::Result& r, const std::string& code) {
  for (const auto& f : r.findings)
    if (f.code == code) return &f;
  return nullptr;
}

fb::Finding finding(const std::string& code, fb::Severity s) { return {code, s, "evidence", "", ""}; }

}  // namespace

// The acceptance case of issue 44: 8 x H100, `doctor --prolog`, its 1 GiB all_reduce at 150 GB/s
// (31% of the 478 GB/s NVLS row): an error, the verdict CRITICAL with the action drain, exit 1.
TEST(Gate, PrologPointFarBelowItsExpectationDrains) {
  const auto r = judged(result_fixture("synthetic-prolog-slow8.json"));
  const auto* f = find_code(r, "BUSBW_BELOW_EXPECTED");
  ASSERT_NE(f, nullptr) << "the 1 GiB point must be judged, not 'no expectation'";
  EXPECT_EQ(f->severity, fb::Severity::error);
  EXPECT_NE(f->evidence.find("busbw 150.0 GB/s is 31% of the expected 478.0 GB/s"), std::string::npos)
      << f->evidence;
  EXPECT_EQ(find_code(r, "NO_EXPECTATION"), nullptr);
  ASSERT_TRUE(r.verdict.has_value());
  EXPECT_EQ(r.verdict->status, fb::CheckStatus::critical);
  EXPECT_EQ(r.verdict->action, fb::CheckAction::drain);
  EXPECT_TRUE(fb::fails_gate(r, fb::FailOn::error));
}

// Below the tolerance but above half the expectation: a warning, which gates only with --fail-on warning.
TEST(Gate, PrologPointSomewhatBelowWarnsAndGatesOnlyOnWarning) {
  auto doc = result_fixture("synthetic-prolog-slow8.json");
  doc.runs[0].points[0].busbw_gbps = 300;  // 63% of 478
  const auto r = judged(doc);
  const auto* f = find_code(r, "BUSBW_BELOW_EXPECTED");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, fb::Severity::warning);
  EXPECT_EQ(r.verdict->action, fb::CheckAction::investigate);
  EXPECT_FALSE(fb::fails_gate(r, fb::FailOn::error));
  EXPECT_TRUE(fb::fails_gate(r, fb::FailOn::warning));
  doc.runs[0].points[0].busbw_gbps = 470;  // within the tolerance
  EXPECT_FALSE(fb::fails_gate(judged(doc), fb::FailOn::warning));
}

TEST(Gate, AJobsConfigurationNeverFailsIt) {
  using fb::FailOn;
  using fb::Severity;
  EXPECT_FALSE(fb::fails_gate(finding("NIC_PORT_DOWN", Severity::warning), FailOn::error));
  EXPECT_TRUE(fb::fails_gate(finding("NIC_PORT_DOWN", Severity::warning), FailOn::warning));
  EXPECT_FALSE(fb::fails_gate(finding("HOST_MISMATCH_ENV", Severity::warning), FailOn::warning));
  EXPECT_FALSE(fb::fails_gate(finding("ENV_NCCL_OVERRIDE", Severity::warning), FailOn::warning));
  EXPECT_FALSE(fb::fails_gate(finding("ALGO_FORCED_FASTER", Severity::warning), FailOn::warning));
  EXPECT_FALSE(fb::fails_gate(finding("HOST_NUMA_BALANCING", Severity::info), FailOn::warning));
  EXPECT_TRUE(fb::fails_gate(finding("HOST_XID", Severity::error), FailOn::error));
  EXPECT_TRUE(fb::fails_gate(finding("A_NEWER_CODE", Severity::warning), FailOn::warning));
}

// A host section's error fails the job's gate (the doctor across hosts).
TEST(Gate, AHostSectionsErrorFailsIt) {
  const auto r = result_fixture("synthetic-4host.json");
  EXPECT_TRUE(fb::fails_gate(r, fb::FailOn::error));
  auto healthy = r;
  healthy.hosts[3].findings.clear();
  EXPECT_FALSE(fb::fails_gate(healthy, fb::FailOn::error));
  EXPECT_TRUE(fb::fails_gate(healthy, fb::FailOn::warning));  // node-c's port down
}

TEST(Gate, EveryRuleCodeOfTheDocsHasARow) {
  const std::string doc = fb::read_file(std::string(FB_FIXTURE_DIR) + "/../../docs/verdicts.md");
  const std::regex row(R"(^\| ([A-Z][A-Z0-9]*_[A-Z0-9_]+(?: / [A-Z][A-Z0-9]*_[A-Z0-9_]+)*) \|)");
  std::set<std::string> codes;
  std::istringstream lines(doc);
  for (std::string line; std::getline(lines, line);)
    if (std::smatch m; std::regex_search(line, m, row))
      for (auto code : fb::split(m[1].str(), '/')) {
        code.erase(code.find_last_not_of(' ') + 1);
        codes.insert(code.substr(code.find_first_not_of(' ')));
      }
  EXPECT_GT(codes.size(), 40u);
  for (const auto& code : codes)
    EXPECT_NE(fb::gate_row(code), nullptr) << code << " has no row in gate_policy.cpp";
}

TEST(Gate, TheDocsTableIsTheCodes) {
  const std::string doc = fb::read_file(std::string(FB_FIXTURE_DIR) + "/../../docs/verdicts.md");
  const auto begin = doc.find(fb::kGateTableBegin);
  const auto end = doc.find(fb::kGateTableEnd);
  ASSERT_NE(begin, std::string::npos) << "docs/verdicts.md lost the gate table's first marker";
  ASSERT_NE(end, std::string::npos) << "docs/verdicts.md lost the gate table's last marker";
  const auto first = begin + std::string(fb::kGateTableBegin).size() + 1;
  if (std::getenv("FB_UPDATE_GOLDEN") != nullptr) {  // as the golden files: rewrite, then review the diff
    fb::write_file_atomically(std::string(FB_FIXTURE_DIR) + "/../../docs/verdicts.md",
                              doc.substr(0, first) + fb::gate_policy_markdown() + doc.substr(end));
    return;
  }
  EXPECT_EQ(doc.substr(first, end - first), fb::gate_policy_markdown())
      << "regenerate it: FB_UPDATE_GOLDEN=1 build/tests/unit_tests "
         "--gtest_filter=Gate.TheDocsTableIsTheCodes";
}

// A doctor that failed (no GPU here) or has not finished leaves a failing verdict: CRITICAL, drain.
TEST(Gate, AFailedOrUnfinishedDoctorDrains) {
  fb::Result header;
  header.host.hostname = "node-x";
  header.started = "2026-12-04T10:00:00Z";
  const auto failed = fb::failed_doctor_result(header, "no usable GPU: CUDA driver version is insufficient");
  EXPECT_EQ(failed.status, fb::RunStatus::failed);
  ASSERT_NE(find_code(failed, "RUN_FAILED"), nullptr);
  EXPECT_NE(find_code(failed, "RUN_FAILED")->evidence.find("no usable GPU"), std::string::npos);
  ASSERT_TRUE(failed.verdict.has_value());
  EXPECT_EQ(failed.verdict->status, fb::CheckStatus::critical);
  EXPECT_EQ(failed.verdict->action, fb::CheckAction::drain);
  EXPECT_FALSE(failed.finished.empty());
  const auto unfinished = fb::unfinished_doctor_result(header);
  EXPECT_EQ(unfinished.verdict->action, fb::CheckAction::drain);
  EXPECT_TRUE(unfinished.finished.empty());  // its textfile's timestamp: when the doctor began
  EXPECT_NE(unfinished.failure.find("began at 2026-12-04T10:00:00Z and has not finished"), std::string::npos);
}
