// The verdict as a Prometheus node-exporter textfile (report/prometheus_textfile.hpp): golden files
// for one host and for two (tests/cli/prometheus_promtool.sh runs promtool over them), and each
// host's verdict from the findings that name its GPUs.
#include <gtest/gtest.h>

#include "analyse/host_judgement.hpp"
#include "analyse/judge.hpp"
#include "analyse/verdict/verdict_contract.hpp"
#include "golden.hpp"
#include "report/prometheus_textfile.hpp"

namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

fb::Result judged(const std::string& name) {
  auto r = result_fixture(name);
  fb::judge(r);
  return r;
}

}  // namespace

TEST(Prometheus, OneHostGolden) {
  expect_golden("prometheus_h200x2.prom", fb::prometheus_textfile(judged("h200x2-doctor-quick.json")));
}

TEST(Prometheus, TwoHostsGolden) {
  const auto text = fb::prometheus_textfile(judged("synthetic-2host-socket.json"));
  expect_golden("prometheus_2host.prom", text);
  EXPECT_TRUE(contains(text, "fabricbench_verdict{host=\"node-a\","));
  EXPECT_TRUE(contains(text, "fabricbench_verdict{host=\"node-b\","));
  EXPECT_TRUE(contains(text, "fabricbench_result_timestamp_seconds{host=\"node-a\"} 1795983295\n"));
  // H200 hosts on TCP sockets at 1.8 GB/s: the sockets' signature (SIGNATURE_SOCKETS) on every host of the
  // job.
  EXPECT_TRUE(
      contains(text, "fabricbench_check_status{host=\"node-b\",check=\"transports\",status=\"CRITICAL\""));
}

// Each host's series read the host the judge gave each finding (analyse/host_judgement.hpp), never
// the evidence's text.
TEST(Prometheus, EachHostJudgedByTheFindingsAboutIt) {
  auto r = result_fixture("synthetic-2host-socket.json");
  // A class without a reference datacenter network: its sockets are a warning (NET_SOCKET), not the error
  // SIGNATURE_SOCKETS H200 hosts get, so that the findings added below decide each host's verdict.
  for (auto& g : r.gpus) g.name = "NVIDIA GH200 480GB";
  fb::judge(r);
  r.findings.push_back({"GPU_LOST", fb::Severity::error, "GPU node-b:0 fell off the bus", "", ""});
  r.findings.push_back({"RUN_FAILED", fb::Severity::error, "node-bb:0 is another host", "", ""});
  fb::name_finding_hosts(r);  // as the judge does
  const auto text = fb::prometheus_textfile(r);
  // node-bb names no host of the run, so it is about the whole job: node-a is CRITICAL by it alone.
  EXPECT_TRUE(contains(text, "fabricbench_verdict{host=\"node-a\",status=\"CRITICAL\",action=\"drain\"} 1"));
  r.findings.pop_back();
  const auto only_b = fb::prometheus_textfile(r);
  EXPECT_TRUE(
      contains(only_b, "fabricbench_verdict{host=\"node-b\",status=\"CRITICAL\",action=\"drain\"} 1"));
  EXPECT_FALSE(contains(only_b, "fabricbench_verdict{host=\"node-a\",status=\"CRITICAL\"")) << only_b;
  EXPECT_TRUE(contains(only_b, "fabricbench_verdict_level{host=\"node-b\"} 4\n"));
  r.findings.back().host = "node-a";  // the same words, about node-a: the field decides
  const auto about_a = fb::prometheus_textfile(r);
  EXPECT_TRUE(contains(about_a, "fabricbench_verdict_level{host=\"node-a\"} 4\n")) << about_a;
  EXPECT_FALSE(contains(about_a, "fabricbench_verdict_level{host=\"node-b\"} 4\n")) << about_a;
}

TEST(Prometheus, LabelValuesAreEscaped) {
  auto r = judged("h200x2-doctor-quick.json");
  r.host.hostname = "a\"b\\c\nd";
  EXPECT_TRUE(contains(fb::prometheus_textfile(r), "host=\"a\\\"b\\\\c\\nd\""));
}
