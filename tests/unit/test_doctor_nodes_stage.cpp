// The doctor's nodes stage (engine/doctor/doctor_nodes_stage, issue 50): pairs of hosts before the
// sweeps, on 3 hosts or more; its time is the budget less the sweep's least; its rounds are priced from
// a set of workers' cost, never from the cluster's all_reduce figure a slow host drags down.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "comm/job_session.hpp"
#include "engine/doctor/doctor_job_stages.hpp"
#include "engine/doctor/doctor_nodes_stage.hpp"
#include "engine/doctor/doctor_stages.hpp"
#include "h200_facts.hpp"
#include "recording_sink.hpp"

namespace {

// A job of `hosts` hosts with one rank each, seen from rank 0; nothing is exchanged.
class FakeJob final : public fb::JobSession {
 public:
  explicit FakeJob(int hosts) {
    std::vector<std::string> names;
    for (int h = 0; h < hosts; ++h) names.push_back("fbhost" + std::to_string(h));
    set_world(0, names, std::vector<int>(names.size(), 0));
  }
  [[nodiscard]] fb::Bootstrap& bootstrap() override { throw std::logic_error("not exchanged"); }
  [[nodiscard]] fb::JobLauncher launcher_kind() const override { return fb::JobLauncher::torchrun; }
  [[noreturn]] void abort(fb::ExitCode /*code*/, const std::string& why) override {
    throw std::runtime_error(why);
  }
  void finish() override {}
};

const fb::DoctorStage& stage(std::string_view name) {
  const auto& stages = fb::doctor_stages();
  return *std::find_if(stages.begin(), stages.end(),
                       [&](const fb::DoctorStage& s) { return s.name == name; });
}

struct JobDoctor {
  explicit JobDoctor(int hosts, bool quick = true) : job(hosts) {
    request.quick = quick;
    ctx.collectives = fb::doctor_collectives_request(request, facts, {0});
    ctx.job = &job;
    ctx.budget_left_s = 16;
    // What the network stage measured across a slow host: 0.03 GB/s, a set of workers 0.8 s.
    ctx.speed.algbw_gbps = 0.03;
    ctx.speed.busbw_gbps = 0.03;
    ctx.speed.latency_us = 500;
    ctx.speed.start_s = 0.8;
  }
  FakeJob job;
  fb::DoctorRequest request;
  fb::MachineFacts facts = h200_facts(1);
  fb::Result result;
  RecordingSink events;
  fb::DoctorContext ctx{request, facts, {0}, {}, result, events};
};

}  // namespace

TEST(DoctorNodes, PairsComeBeforeTheSweepsOnThreeHostsOrMore) {
  std::vector<std::string> names;
  for (const auto& s : fb::doctor_stages()) names.emplace_back(s.name);
  const auto at = [&](const char* n) { return std::find(names.begin(), names.end(), n) - names.begin(); };
  EXPECT_EQ(at("nodes"), at("network") + 1);
  EXPECT_LT(at("nodes"), at("collectives"));
  EXPECT_TRUE(stage("nodes").applies(JobDoctor(3).ctx));
  EXPECT_TRUE(stage("nodes").applies(JobDoctor(12).ctx));
  EXPECT_FALSE(stage("nodes").applies(JobDoctor(2).ctx)) << "one pair cannot tell which host is slow";
}

// The stage keeps all but what the sweep needs at its least (one size), and never more than a quarter
// of the budget goes to that.
TEST(DoctorNodes, ItsTimeIsTheBudgetLessTheSweepsLeast) {
  JobDoctor d(12);
  const double least = fb::least_job_collectives_s(d.ctx);
  EXPECT_GT(least, 0.0);
  EXPECT_LT(least, 4.0);
  EXPECT_DOUBLE_EQ(fb::nodes_budget_s(d.ctx), 16 - least);
  d.ctx.budget_left_s = least;  // the sweep's least alone would take all of it: a quarter goes to it
  EXPECT_DOUBLE_EQ(fb::nodes_budget_s(d.ctx), least * (1 - fb::kSweepReserveShare));
}

// Priced from a set of workers' cost and the window, whatever the cluster's all_reduce read (0.03 GB/s
// across a slow host, or 300): thorough, 12 hosts at 0.8 + 0.5 s a round, the round robin's 11 rounds
// (14.3 s) fit 40 s either way. --quick (a 0.2 s window) in 10 s: the round robin's 11 s do not fit, the
// search's 5 rounds (5 s) do; 4 hosts: the round robin's 3 rounds.
TEST(DoctorNodes, RoundsArePricedFromTheirOwnCostNotTheClustersFigure) {
  JobDoctor slow(12, false);
  JobDoctor fast(12, false);
  slow.ctx.budget_left_s = 40;
  fast.ctx.budget_left_s = 40;
  fast.ctx.speed.algbw_gbps = 300;
  EXPECT_DOUBLE_EQ(stage("nodes").prior_s(slow.ctx), stage("nodes").prior_s(fast.ctx));
  const auto plan = stage("nodes").plan(slow.ctx);
  EXPECT_DOUBLE_EQ(plan.pair_window_s, fb::kDoctorPairWindowS);
  EXPECT_TRUE(plan.cuts.empty());
  EXPECT_NEAR(plan.estimate_s, 11 * (0.8 + fb::kDoctorPairWindowS), 1e-9);
  JobDoctor quick(12);
  quick.ctx.budget_left_s = 10;
  EXPECT_NEAR(stage("nodes").plan(quick.ctx).estimate_s, 5 * (0.8 + fb::kDoctorPairMinWindowS), 1e-9);
  EXPECT_NEAR(stage("nodes").plan(JobDoctor(4).ctx).estimate_s, 3 * (0.8 + fb::kDoctorPairMinWindowS), 1e-9);
  // Little time: the window is cut to its least before any round is left out (the rounds then stop when
  // the next would not fit, and the hosts left unjudged are said: NODE_NOT_JUDGED).
  JobDoctor tight(12, false);
  tight.ctx.budget_left_s = 4;
  const auto cut = stage("nodes").plan(tight.ctx);
  EXPECT_DOUBLE_EQ(cut.pair_window_s, fb::kDoctorPairMinWindowS);
  ASSERT_EQ(cut.cuts.size(), 1U);
  EXPECT_EQ(cut.cuts[0].stage, "nodes");
  EXPECT_LE(cut.estimate_s, fb::nodes_budget_s(tight.ctx));
}

TEST(DoctorNodes, QuickSearchesInFiveRoundsThoroughInTen) {
  const auto quick = fb::doctor_sampling(true);
  EXPECT_EQ(quick.passes * quick.peers, 3);
  EXPECT_EQ(quick.retest_peers, 2);
  const auto thorough = fb::doctor_sampling(false);
  EXPECT_EQ(thorough.passes * thorough.peers + thorough.retest_peers, 10);
}
