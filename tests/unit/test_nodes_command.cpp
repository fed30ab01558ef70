// `fabricbench nodes` without a GPU: its command line into the request (cli/nodes_cli), the job's
// hosts and each round's groups of ranks (engine/nodes_measurement), the groups' checks
// (comm/group_bootstrap), and the doctor's hand-off and host sections (engine/host_sections).
#include <gtest/gtest.h>

#include "analyse/hosts/cluster_limit.hpp"
#include "analyse/judge.hpp"
#include "cli/nodes_cli.hpp"
#include "cli_args.hpp"
#include "comm/group_bootstrap.hpp"
#include "core/error.hpp"
#include "engine/commands/nodes_measurement.hpp"
#include "engine/job/host_sections.hpp"
#include "fake_job.hpp"
#include "golden.hpp"
#include "model/result_json.hpp"
#include "report/hosts_markdown.hpp"
#include "report/html/html_hosts.hpp"

namespace {

fb::NodesRequest nodes_args(std::vector<std::string> args) {
  return fb::nodes_request(
      parse_subcommand<fb::NodesOptions>(fb::add_nodes_subcommand, "nodes", std::move(args)));
}

}  // namespace

TEST(NodesCommand, DefaultsMeasureEveryPairOfARoundOverOneWindow) {
  const auto r = nodes_args({});
  EXPECT_EQ(r.measure.collectives, (std::vector<std::string>{"all_reduce"}));
  EXPECT_EQ(r.measure.sizes, (std::vector<std::uint64_t>{64ULL << 20}));
  EXPECT_EQ(r.mode, fb::NodesModeChoice::automatic);
  const auto& s = r.measure.settings.sampling;
  EXPECT_TRUE(s.full_window);
  EXPECT_DOUBLE_EQ(s.max_time_s, 0.5);
  EXPECT_EQ(s.tail_iters, 0);
  EXPECT_DOUBLE_EQ(r.slow_share, 0) << "from the pairs' spread";
  EXPECT_DOUBLE_EQ(r.reference_gbps, 0);
}

TEST(NodesCommand, FlagsBindIntoTheRequest) {
  const auto r = nodes_args({"sendrecv", "--size", "16M", "--mode", "sampling", "--peers", "3", "--passes",
                             "2", "--retest-peers", "5", "--seed", "9", "--reference", "48", "--slow-share",
                             "0.7", "--max-time", "2"});
  EXPECT_EQ(r.measure.collectives, (std::vector<std::string>{"sendrecv"}));
  EXPECT_EQ(r.measure.sizes, (std::vector<std::uint64_t>{16ULL << 20}));
  EXPECT_EQ(r.mode, fb::NodesModeChoice::sampling);
  EXPECT_EQ(r.sampling.peers, 3);
  EXPECT_EQ(r.sampling.passes, 2);
  EXPECT_EQ(r.sampling.retest_peers, 5);
  EXPECT_EQ(r.sampling.seed, 9U);
  EXPECT_DOUBLE_EQ(r.reference_gbps, 48);
  EXPECT_DOUBLE_EQ(r.slow_share, 0.7);
  EXPECT_DOUBLE_EQ(r.measure.settings.sampling.max_time_s, 2);
  EXPECT_EQ(nodes_args({"--mode", "round-robin"}).mode, fb::NodesModeChoice::round_robin);
}

TEST(NodesCommand, RefusesWhatItCannotMeasure) {
  EXPECT_THROW(nodes_args({"--gpus", "0"}), fb::Error);
  EXPECT_THROW(nodes_args({"--size", "lots"}), fb::Error);
  EXPECT_THROW(nodes_args({"--mode", "all"}), CLI::ParseError);
  EXPECT_THROW(nodes_args({"--slow-share", "1.5"}), CLI::ParseError);
  EXPECT_THROW(nodes_args({"--reference", "-1"}), CLI::ParseError);
  EXPECT_THROW(nodes_args({"--reference", "0"}), CLI::ParseError);
  EXPECT_THROW(nodes_args({"-c", "1"}), fb::Error);
}

TEST(NodesCommand, HostsInTheOrderOfTheirFirstRankWithTheirRanks) {
  const auto h = fb::job_hosts({"b", "b", "a", "a", "c", "c"});
  EXPECT_EQ(h.names, (std::vector<std::string>{"b", "a", "c"}));
  EXPECT_EQ(h.ranks, (std::vector<std::vector<int>>{{0, 1}, {2, 3}, {4, 5}}));
  // A round's pairs: both hosts' ranks, the first host's first.
  EXPECT_EQ(fb::round_groups(h, {{0, 2}, {1, 1}}).at(0), (std::vector<int>{0, 1, 4, 5}));
  EXPECT_EQ(fb::round_groups(h, {{2, 1}}), (std::vector<std::vector<int>>{{4, 5, 2, 3}}));
}

TEST(GroupBootstrap, GroupsAreCheckedAndEachRankFindsItsPlace) {
  const fb::RankGroups groups{{0, 3}, {1, 2}};
  EXPECT_NO_THROW(fb::check_groups(groups, 5));
  EXPECT_THROW(fb::check_groups({{0, 1}, {1, 2}}, 4), fb::Error);  // rank 1 twice
  EXPECT_THROW(fb::check_groups({{0, 4}}, 4), fb::Error);          // no rank 4
  EXPECT_THROW(fb::check_groups({{}}, 4), fb::Error);
  EXPECT_EQ(fb::place_in_groups(groups, 2).group, 1);
  EXPECT_EQ(fb::place_in_groups(groups, 2).index, 1);
  EXPECT_EQ(fb::place_in_groups(groups, 3).index, 1);
  EXPECT_EQ(fb::place_in_groups(groups, 4).group, -1);  // sits the round out
  EXPECT_FALSE(fb::reachable_address().empty());
}

namespace {

// Rank 0 of a job on hosts n1 (ranks 0, 1) and n2 (rank 2), whose own section is not asked for (its
// local rank is 1 here, so that no machine is probed); the other ranks answer with `answers`.
class SectionsJob final : public ThreeRankJob {
 public:
  SectionsJob() : ThreeRankJob({1, 0, 0}) {}
  std::vector<std::string> allgather(const std::string& mine) override {
    return answers.empty() ? std::vector<std::string>{mine, "", ""} : answers;
  }
  std::vector<std::string> answers;
};

// A real host's section, claiming to be `name` and its GPUs to be there, with a verdict of its own.
std::string forged_section(const std::string& name) {
  auto s = result_fixture("cpu-2host-torchrun-refused.json").hosts.at(1);
  s.name = s.host.hostname = name;
  for (auto& g : s.gpus) g.host = name;
  s.ranks = {0, 1, 2};
  s.verdict = fb::Verdict{};
  return nlohmann::json(s).dump();
}

}  // namespace

// A section is its sender's host's, whatever it says: a rank cannot name another host (one outside the
// job included), put its GPUs there, or give a verdict; a second section of one host is not taken.
TEST(HostSections, ASectionIsTheHostOfTheRankThatSentIt) {
  SectionsJob job;
  job.answers = {"", forged_section("victim-node"), forged_section("n1")};
  const auto sections = fb::gather_host_sections(job, "", {});
  ASSERT_EQ(sections.size(), 2u);
  EXPECT_EQ(sections[0].name, "n1");  // from rank 1, n1's first rank here
  EXPECT_EQ(sections[1].name, "n2");  // rank 2 said "n1": it is n2's
  EXPECT_EQ(sections[1].host.hostname, "n2");
  EXPECT_EQ(sections[0].ranks, (std::vector<int>{0, 1}));
  EXPECT_EQ(sections[1].ranks, (std::vector<int>{2}));
  for (const auto& s : sections) {
    EXPECT_FALSE(s.verdict.has_value());
    for (const auto& g : s.gpus) EXPECT_EQ(g.host, s.name);
    EXPECT_EQ(nlohmann::json(s).dump().find("victim-node"), std::string::npos);
  }
  job.answers = {"", "", "{\"name\": " + std::string(300000, '[') + std::string(300000, ']') + "}"};
  try {
    fb::gather_host_sections(job, "", {});
    ADD_FAILURE() << "a section nested 300,000 deep was taken";
  } catch (const fb::Error& e) {
    EXPECT_EQ(e.code(), fb::ExitCode::run_failed);
    EXPECT_NE(std::string(e.what()).find("rank 2 (n2) sent a host section that is not one"),
              std::string::npos);
    EXPECT_NE(std::string(e.what()).find("nested deeper than 64 levels"), std::string::npos) << e.what();
  }
  job.answers = {"", "", R"({"name": 5, "gpus": "x"})"};
  EXPECT_THROW(fb::gather_host_sections(job, "", {}), fb::Error);
}

// The hand-off names no library: each rank describes its host with its own --nccl-lib.
TEST(HostSections, TheHandOffNamesNoLibrary) {
  EXPECT_EQ(fb::describe_hosts_message(), fb::kJobDescribeHosts);
  EXPECT_TRUE(fb::describe_hosts_request(fb::describe_hosts_message()));
  EXPECT_FALSE(fb::describe_hosts_request("describe hosts\n/tmp/evil.so"));
  EXPECT_FALSE(fb::describe_hosts_request(fb::kJobNoMorePlans));
  EXPECT_FALSE(fb::describe_hosts_request("{\"plan\": {}}"));
}

TEST(HostSections, RanksDriveTheirHostsGpusInOrder) {
  fb::HostSection a;
  a.name = "a";
  a.ranks = {0, 2};
  a.gpus = {{0, 0, "H200", "0000:19:00.0", 1, 90, "a"}, {1, 0, "H200", "0000:3b:00.0", 1, 90, "a"}};
  fb::HostSection b = a;
  b.name = "b";
  b.ranks = {1};
  for (auto& g : b.gpus) g.host = "b";
  const auto gpus = fb::ranks_gpus({a, b});
  ASSERT_EQ(gpus.size(), 3U);
  EXPECT_EQ(gpus[0].host, "a");
  EXPECT_EQ(gpus[1].host, "b");
  EXPECT_EQ(gpus[1].index, 0);
  EXPECT_EQ(gpus[2].host, "a");
  EXPECT_EQ(gpus[2].index, 1);
  EXPECT_EQ(gpus[2].rank, 2);
}

TEST(HostSections, EachHostIsJudgedAloneWithoutOneGpu) {
  fb::Result r;
  for (const char* name : {"fbhost0", "fbhost1"}) {
    fb::HostSection s;
    s.name = name;
    s.ranks = {name[6] - '0'};
    s.gpus = {{0, 0, "NVIDIA H200", "0000:19:00.0", 1, 90, name}};
    s.host.comm.version = "2.28.3";
    r.hosts.push_back(s);
  }
  r.hosts[1].host.comm.version = "2.27.5";
  fb::judge(r);
  for (const auto& s : r.hosts) {
    ASSERT_TRUE(s.verdict.has_value()) << s.name;
    for (const auto& f : s.findings) EXPECT_NE(f.code, "ONE_GPU") << s.name;
  }
  const auto md = fb::hosts_markdown(r);
  EXPECT_NE(md.find("## Hosts (2)"), std::string::npos) << md;
  EXPECT_NE(md.find("| fbhost1 | 1 | 1 x NVIDIA H200 | 2.27.5 |"), std::string::npos) << md;
  EXPECT_NE(md.find("### fbhost0: "), std::string::npos) << md;
  EXPECT_NE(md.find("Limited by not known: NCCL's transports between the hosts were not read."),
            std::string::npos)
      << md;
  EXPECT_EQ(fb::hosts_markdown(fb::Result{}), "");
  const auto html = fb::hosts_html(r);
  EXPECT_NE(html.find("<td>fbhost1</td><td>1</td><td>1 x NVIDIA H200</td><td>2.27.5</td>"), std::string::npos)
      << html;
  EXPECT_EQ(fb::hosts_html(fb::Result{}), "");
  // With NCCL's set-up read: the network between the hosts, named with NCCL's words and NIC.
  fb::Run run;
  run.collective = "all_reduce";
  run.nccl_transports = {"NET/Socket/0", "NET/Socket/0/Shared"};
  run.nccl_nics = std::vector<fb::NcclNic>{{"Socket", 0, "fb0", 0, "", false, "10.77.0.1<0>"}};
  fb::Point p;
  p.bytes = 1ULL << 30;
  p.busbw_gbps = 1.9;
  run.points = {p};
  r.runs = {run};
  EXPECT_EQ(fb::cluster_limit(r),
            "the network between the hosts: NCCL's NET/Socket over fb0 (all_reduce busbw 1.90 GB/s at "
            "1073741824 B); "
            "each host has one rank, so nothing else joins them");
}
