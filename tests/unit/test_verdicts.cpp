// Every verdict rule fires on its case and stays silent on a healthy 8-GPU NVSwitch result and
// a healthy MI300X-like result.
#include <gtest/gtest.h>

#include <algorithm>

#include "analyse/expect/ceilings.hpp"
#include "analyse/judge.hpp"
#include "analyse/run/algo_selection.hpp"
#include "analyse/run/collective_verdicts.hpp"
#include "analyse/run/environment_rules.hpp"
#include "analyse/run/run_health.hpp"
#include "analyse/run/scaling.hpp"
#include "analyse/run/transports.hpp"
#include "p2p_builders.hpp"
#include "topology_fixtures.hpp"

namespace {

fb::Point point(std::uint64_t bytes, double busbw, double ci = 0.003) {
  fb::Point p;
  p.bytes = bytes;
  p.busbw_gbps = busbw;
  p.algbw_gbps = busbw;
  p.time_us.median_ci = ci;
  p.time_us.n = 6;
  p.wrong = 0;
  return p;
}

fb::Run collective_run(const std::string& name, int gpus, std::vector<fb::Point> points) {
  fb::Run run;
  run.collective = name;
  run.dtype = "float";
  for (int g = 0; g < gpus; ++g) run.gpus.push_back(g);
  run.points = std::move(points);
  run.nccl_transports = {"P2P/CUMEM"};
  return run;
}

// A healthy machine's doctor result: ring busbw near the ceiling, even pairs, no overrides.
fb::Result healthy(const std::string& fixture, double busbw_1g) {
  fb::Result r;
  r.status = fb::RunStatus::complete;
  r.topology = load_topology_fixture(fixture);
  const int n = static_cast<int>(r.topology->gpus.size());
  r.runs.push_back(collective_run("all_reduce", n, {point(1 << 20, 60), point(1 << 30, busbw_1g)}));
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      if (a != b) r.p2p.push_back(p2p_figure("ce_read", a, b, 390 - 0.1 * (a + b)));
  for (int count : {2, 4, 8}) {
    auto s = collective_run("all_reduce", count, {point(1 << 30, busbw_1g * (1 + 0.01 * count))});
    s.kind = fb::RunKind::scale;
    s.label = "best";
    r.runs.push_back(s);
  }
  return r;
}

std::vector<std::string> codes(const std::vector<fb::Finding>& f,
                               fb::Severity min_severity = fb::Severity::warning) {
  std::vector<std::string> out;
  for (const auto& x : f)
    if (min_severity == fb::Severity::info || x.severity != fb::Severity::info) out.push_back(x.code);
  return out;
}

bool has(const std::vector<fb::Finding>& f, const std::string& code) {
  return std::any_of(f.begin(), f.end(), [&](const auto& x) { return x.code == code; });
}

}  // namespace

// 8 x H100 is judged against NCCL's default there, NVLS (478 GB/s, issue 32); the ring's 360 is healthy
// only where NVLS is off, which is said.
TEST(Verdicts, HealthyNvswitchAndMi300xAreSilent) {
  EXPECT_EQ(codes(fb::analyse_result(healthy("nvswitch8", 478))), std::vector<std::string>{});
  EXPECT_EQ(codes(fb::analyse_result(healthy("nvswitch8", 360))),
            std::vector<std::string>{"BUSBW_BELOW_EXPECTED"});
  auto ring = healthy("nvswitch8", 360);
  ring.env["NCCL_NVLS_ENABLE"] = "0";
  const auto f = fb::analyse_result(ring);
  EXPECT_FALSE(has(f, "BUSBW_BELOW_EXPECTED"));
  EXPECT_TRUE(has(f, "NVLS_OFF"));
  EXPECT_EQ(codes(fb::analyse_result(healthy("mi300x8", 318))), std::vector<std::string>{});
}

TEST(Verdicts, NcclOverridesInTheEnvironment) {
  auto r = healthy("nvswitch8", 360);
  r.env = {{"NCCL_PROTO", "LL"}, {"NCCL_DEBUG", "INFO"}};
  const auto f = fb::check_environment(r);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, fb::Severity::warning);
  EXPECT_NE(f[0].evidence.find("NCCL_PROTO=LL"), std::string::npos);
  EXPECT_EQ(f[0].evidence.find("NCCL_DEBUG"), std::string::npos);  // says, does not change
  // NVLS off on 8 x H100: NVLS_OFF says it (analyse/expect/what_ran.hpp), not "matters little to this run".
  r.env = {{"NCCL_NVLS_ENABLE", "0"}};
  EXPECT_TRUE(fb::check_environment(r).empty());
  EXPECT_TRUE(has(fb::analyse_result(r), "NVLS_OFF"));
  // On 2 GPUs NVLS cannot run anyway: an info that it matters little.
  auto pair = healthy("nvswitch8", 360);
  pair.runs[0].gpus = {0, 1};
  pair.env = {{"NCCL_NVLS_ENABLE", "0"}};
  ASSERT_EQ(fb::check_environment(pair).size(), 1u);
  EXPECT_EQ(fb::check_environment(pair)[0].severity, fb::Severity::info);
}

TEST(Verdicts, FallbackToSharedMemoryIsAnError) {
  auto r = healthy("nvswitch8", 27);
  r.runs[0].nccl_transports = {"SHM/direct/direct"};
  const auto f = fb::check_transports(r);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].code, "NCCL_FALLBACK");
  EXPECT_EQ(f[0].severity, fb::Severity::error);
  EXPECT_TRUE(has(fb::analyse_result(r), "BUSBW_BELOW_CEILING"));  // 27 of 373.5 GB/s
}

TEST(Verdicts, BusbwFarBelowTheRingCeiling) {
  auto r = healthy("h200x2", 124);  // NCCL_PROTO=LL caps near 124 GB/s on 2 x H200
  r.runs.resize(1);
  r.runs[0].gpus = {0, 1};
  const auto f = fb::check_ceilings(r);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].evidence.find("33% of the ring's path ceiling 373.5 GB/s"), std::string::npos)
      << f[0].evidence;
  EXPECT_DOUBLE_EQ(fb::ring_ceiling(*r.topology, {0, 1}).gbps, 373.5);
  r.runs[0].points[1].busbw_gbps = 331;  // healthy
  EXPECT_TRUE(fb::check_ceilings(r).empty());
}

TEST(Verdicts, WrongDataAndNoise) {
  auto r = healthy("nvswitch8", 360);
  r.runs[0].points[1].wrong = 3;
  r.runs[0].points[0].time_us.median_ci = 0.08;
  const auto f = fb::check_data_and_noise(r);
  EXPECT_EQ(codes(f), (std::vector<std::string>{"DATA_WRONG", "RESULT_NOISY"}));
  EXPECT_EQ(f[0].severity, fb::Severity::error);
  EXPECT_NE(f[0].evidence.find("3 at 1073741824 B"), std::string::npos) << f[0].evidence;
}

TEST(Verdicts, BusbwDroppingAsGpusAreAdded) {
  auto r = healthy("nvswitch8", 360);
  r.runs.back().points[0].busbw_gbps = 250;  // 8 GPUs
  const auto f = fb::check_scaling(r);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].evidence.find("on 8 GPUs (best placement)"), std::string::npos) << f[0].evidence;
}

TEST(Verdicts, ForcedAlgorithmBeatingNcclsChoice) {
  fb::Result r;
  auto def = collective_run("all_reduce", 2, {point(1 << 30, 331)});
  def.kind = fb::RunKind::algos;
  auto tree = def;
  tree.forced = {{"NCCL_ALGO", "Tree"}};
  tree.points = {point(1 << 30, 343)};
  r.runs = {def, tree};
  const auto f = fb::check_algorithms(r);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].code, "ALGO_FORCED_FASTER");
}

TEST(Verdicts, TopologyAndP2pRulesAreIncluded) {
  auto r = healthy("nvswitch8-links-down", 360);
  r.p2p[3].value = 200;  // one slow pair
  const auto f = fb::analyse_result(r);
  EXPECT_TRUE(has(f, "TOPO_NVLINK_DOWN"));
  EXPECT_TRUE(has(f, "P2P_SLOW_PAIR"));
}
