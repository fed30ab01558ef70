// The document's members of 1.3 (model/result.hpp): a job's host sections (`hosts`) and `nodes`,
// read from the hand-written document of every field (every_field_result.hpp; its C++ twin is checked
// against the same text by ResultJsonText.SerialisesToTheHandWrittenDocument).
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "every_field_result.hpp"
#include "expect_error.hpp"
#include "model/result_json.hpp"

TEST(ResultJsonText, ParsesHostSections) {
  const auto r = fb::parse_result(kEveryFieldJson);
  ASSERT_EQ(r.hosts.size(), 2U);
  const auto& h = r.hosts[0];
  EXPECT_EQ(h.name, "node-8");
  EXPECT_EQ(h.ranks, (std::vector<int>{4, 5}));
  EXPECT_EQ(h.host.hostname, "node-8.cluster");
  EXPECT_EQ(h.host.comm.version, "2.27.5");
  EXPECT_EQ(h.host.comm.path, "/usr/lib/libnccl.so.2");
  EXPECT_FALSE(h.host.config.has_value());
  EXPECT_EQ(h.env, (std::map<std::string, std::string>{{"NCCL_IB_HCA", "mlx5_0"}}));
  ASSERT_EQ(h.gpus.size(), 1U);
  EXPECT_EQ(h.gpus[0].rank, 5);
  EXPECT_EQ(h.gpus[0].memory_bytes, 42949672960ULL);
  ASSERT_TRUE(h.topology.has_value());
  EXPECT_EQ(h.topology->numa_cpulists, (std::map<int, std::string>{{2, "0-15"}}));
  EXPECT_EQ(h.topology->missing, std::vector<std::string>{"NVML: not loaded"});
  EXPECT_EQ(h.net_plugin, "/opt/hpcx/lib/libnccl-net.so");
  ASSERT_EQ(h.findings.size(), 1U);
  EXPECT_EQ(h.findings[0].code, "HOST_MISMATCH_NCCL");
  EXPECT_EQ(h.findings[0].severity, fb::Severity::warning);
  ASSERT_TRUE(h.verdict.has_value());
  EXPECT_EQ(h.verdict->action, fb::CheckAction::investigate);
  EXPECT_EQ(h.verdict->checks.at(0).check, "host_consistency");
  const auto& bare = r.hosts[1];  // every optional member unset
  EXPECT_TRUE(bare.ranks.empty());
  EXPECT_FALSE(bare.topology.has_value());
  EXPECT_EQ(bare.net_plugin, "");
  EXPECT_FALSE(bare.verdict.has_value());
}

TEST(ResultJsonText, ParsesNodes) {
  const auto r = fb::parse_result(kEveryFieldJson);
  ASSERT_TRUE(r.nodes.has_value());
  const auto& n = *r.nodes;
  EXPECT_EQ(n.mode, "sampling");
  EXPECT_EQ(n.collective, "all_gather");
  EXPECT_EQ(n.bytes, 268435456U);
  EXPECT_EQ(n.rounds_planned, 6);
  EXPECT_DOUBLE_EQ(n.seconds_per_round, 2.5);
  EXPECT_DOUBLE_EQ(n.reference_gbps, 48.25);
  EXPECT_EQ(n.reference_from, "the median of 12 pairs");
  EXPECT_DOUBLE_EQ(n.slow_below_gbps, 38.5);
  ASSERT_EQ(n.pairs.size(), 2U);
  EXPECT_EQ(n.pairs[0].a, "node-8");
  EXPECT_EQ(n.pairs[0].b, "node-9");
  EXPECT_EQ(n.pairs[0].round, 2);
  EXPECT_DOUBLE_EQ(n.pairs[0].busbw_gbps, 12.75);
  EXPECT_DOUBLE_EQ(n.pairs[0].time_us, 830.5);
  EXPECT_EQ(n.pairs[1].failure, "rank 6 timed out");
  EXPECT_EQ(n.named, std::vector<std::string>{"node-9"});
  EXPECT_EQ(n.exclude, "node-9");
}

// Documents of one host, and every document before 1.3, have neither member: absent when written.
TEST(ResultJsonText, NoHostsAndNoNodesAreAbsent) {
  auto r = every_field_result();
  r.hosts.clear();
  r.nodes.reset();
  const auto j = nlohmann::json(r);
  EXPECT_FALSE(j.contains("hosts"));
  EXPECT_FALSE(j.contains("nodes"));
  const auto back = fb::parse_result(j.dump());
  EXPECT_TRUE(back.hosts.empty());
  EXPECT_FALSE(back.nodes.has_value());
}

// The whole numbers of 1.3 are checked by name with their JSON path (model/json_limits.cpp), as the
// older members are; the pairs' `a` and `b` are host names there, not GPU ids.
TEST(ResultJsonText, HostAndNodesNumbersAreBounded) {
  auto j = nlohmann::json::parse(kEveryFieldJson);
  j["hosts"][0]["ranks"] = {4, 100000};
  expect_usage_error([&] { fb::parse_result(j.dump()); },
                     "$.hosts[0].ranks[1]: expected a whole number in [-1, 4095]");
  j = nlohmann::json::parse(kEveryFieldJson);
  j["nodes"]["pairs"][0]["round"] = 1.5;
  expect_usage_error([&] { fb::parse_result(j.dump()); }, "$.nodes.pairs[0].round: expected a whole number");
  j = nlohmann::json::parse(kEveryFieldJson);
  j["nodes"]["rounds_planned"] = 1e12;
  expect_usage_error([&] { fb::parse_result(j.dump()); }, "$.nodes.rounds_planned: expected a whole number");
  j = nlohmann::json::parse(kEveryFieldJson);
  j["nodes"]["pairs"][0]["a"] = 3;  // a number where a host's name must be: refused by name
  expect_usage_error([&] { fb::parse_result(j.dump()); }, "malformed result document");
}
