// The environment rules (analyse/run/environment_rules.hpp): the table, and severity from what the
// run shows (nodes, GPUs, peer access, NCCL's fallback).
#include <gtest/gtest.h>

#include "analyse/run/environment_rules.hpp"
#include "host_fixtures.hpp"

namespace {

std::vector<fb::Finding> with(fb::Result r, std::map<std::string, std::string> env) {
  r.env = std::move(env);
  return fb::check_environment(r);
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST(EnvironmentRules, TableCoversTheSettingsThatChangePerformance) {
  for (const char* name :
       {"NCCL_ALGO",          "NCCL_PROTO",         "NCCL_MAX_CTAS",      "NCCL_MIN_CTAS",
        "NCCL_MIN_NCHANNELS", "NCCL_MAX_NCHANNELS", "NCCL_NTHREADS",      "NCCL_BUFFSIZE",
        "NCCL_TOPO_FILE",     "NCCL_P2P_LEVEL",     "NCCL_P2P_DISABLE",   "NCCL_SHM_DISABLE",
        "NCCL_IB_HCA",        "NCCL_IB_DISABLE",    "NCCL_NET_GDR_LEVEL", "NCCL_NET",
        "NCCL_SOCKET_IFNAME", "NCCL_CUMEM_ENABLE",  "NCCL_NVLS_ENABLE",   "NCCL_TUNER_PLUGIN"})
    EXPECT_NE(fb::find_env_rule(name), nullptr) << name;
  EXPECT_EQ(fb::find_env_rule("NCCL_DEBUG"), nullptr) << "changes what NCCL says, not what it does";
  EXPECT_EQ(fb::find_env_rule("NCCL_IB_HCA")->name, "NCCL_IB_");
  EXPECT_EQ(fb::find_env_rule("NCCL_NET_GDR_LEVEL")->name, "NCCL_NET_GDR_LEVEL") << "exact before prefix";
  for (const auto& rule : fb::env_rules()) EXPECT_FALSE(rule.changes.empty()) << rule.name;
}

TEST(EnvironmentRules, TuningOverridesWarn) {
  const auto f = with(host_result("healthy"), {{"NCCL_PROTO", "LL"}, {"NCCL_DEBUG", "INFO"}});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].code, "ENV_NCCL_OVERRIDE");
  EXPECT_EQ(f[0].severity, fb::Severity::warning);
  EXPECT_TRUE(contains(f[0].evidence, "NCCL_PROTO=LL (the protocol")) << f[0].evidence;
  EXPECT_FALSE(contains(f[0].evidence, "NCCL_DEBUG"));
  EXPECT_TRUE(with(host_result("healthy"), {{"NCCL_DEBUG", "INFO"}}).empty());
}

TEST(EnvironmentRules, NetworkSettingsOnOneNodeAreInfo) {
  const auto one = with(host_result("healthy"), {{"NCCL_IB_HCA", "mlx5_0"}, {"NCCL_SOCKET_IFNAME", "eth0"}});
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].severity, fb::Severity::info);
  EXPECT_TRUE(contains(one[0].evidence, "one node")) << one[0].evidence;
  auto two_nodes = host_result("healthy");
  two_nodes.gpus[1].host = "node-2";
  const auto across = with(two_nodes, {{"NCCL_IB_HCA", "mlx5_0"}});
  ASSERT_EQ(across.size(), 1u);
  EXPECT_EQ(across[0].severity, fb::Severity::warning);
}

TEST(EnvironmentRules, NvlsOffAloneIsInfo) {
  const auto f = with(host_result("healthy"), {{"NCCL_NVLS_ENABLE", "0"}});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, fb::Severity::info);
  // Beside a real override: one warning for that, one info for NVLS.
  const auto both = with(host_result("healthy"), {{"NCCL_NVLS_ENABLE", "0"}, {"NCCL_ALGO", "Tree"}});
  ASSERT_EQ(both.size(), 2u);
  EXPECT_EQ(both[0].severity, fb::Severity::warning);
  EXPECT_FALSE(contains(both[0].evidence, "NCCL_NVLS_ENABLE"));
  EXPECT_EQ(both[1].severity, fb::Severity::info);
}

TEST(EnvironmentRules, DisabledTransportExplainsTheFallback) {
  auto r = host_result("healthy");
  fb::Run run;
  run.gpus = {0, 1};
  run.nccl_transports = {"SHM/direct/direct"};
  r.runs.push_back(run);
  const auto f = with(r, {{"NCCL_P2P_DISABLE", "1"}});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, fb::Severity::warning);
  EXPECT_TRUE(contains(f[0].evidence, "NCCL_P2P_DISABLE=1 explains the NCCL_FALLBACK finding"))
      << f[0].evidence;
  r.runs[0].nccl_transports = {"P2P/CUMEM"};  // no fallback: no such claim
  EXPECT_FALSE(contains(with(r, {{"NCCL_P2P_DISABLE", "1"}})[0].evidence, "NCCL_FALLBACK"));
  // One GPU has no peers: P2P settings cannot matter.
  EXPECT_EQ(with(host_result("healthy", 1), {{"NCCL_P2P_DISABLE", "1"}})[0].severity, fb::Severity::info);
}

TEST(EnvironmentRules, ShmOffMattersOnlyWithoutPeerAccess) {
  auto r = host_result("healthy");
  for (auto& p : r.topology->pairs) p.p2p = true;
  EXPECT_EQ(with(r, {{"NCCL_SHM_DISABLE", "1"}})[0].severity, fb::Severity::info);
  r.topology->pairs[0].p2p = false;
  EXPECT_EQ(with(r, {{"NCCL_SHM_DISABLE", "1"}})[0].severity, fb::Severity::warning);
  // A pair outside the run does not concern it: a job on GPU 0 alone.
  auto one = host_result("healthy", 1);
  for (auto& p : one.topology->pairs) p.p2p = false;
  EXPECT_EQ(with(one, {{"NCCL_SHM_DISABLE", "1"}})[0].severity, fb::Severity::info);
}
