#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "bench/plan.hpp"
#include "comm/job_session.hpp"

TEST(JobHandoff, PlanAndEnvironmentReachTheOtherRanksButNotNcclsLogSettings) {
  fb::Plan plan;
  plan.launcher = fb::LauncherKind::job;
  plan.gpus = {0, 1, 0, 1};
  plan.runs = {{"all_reduce"}};
  plan.runs[0].points = fb::expand_points(plan.runs[0], {1 << 20}, {false}, plan.nranks());
  const std::map<std::string, std::string> env{{"NCCL_ALGO", "Tree"},
                                               {"NCCL_PROTO", "Simple"},
                                               {"NCCL_DEBUG", "INFO"},
                                               {"NCCL_DEBUG_SUBSYS", "INIT,TUNING"},
                                               {"NCCL_DEBUG_FILE", "/tmp/x/nccl.%h.%p.log"}};
  const auto message = fb::parse_job_plan_message(fb::job_plan_message(nlohmann::json(plan), env));
  ASSERT_TRUE(message.has_value());
  EXPECT_EQ(message->env,
            (std::map<std::string, std::string>{{"NCCL_ALGO", "Tree"}, {"NCCL_PROTO", "Simple"}}));
  const auto back = message->plan.get<fb::Plan>();
  EXPECT_EQ(back.launcher, fb::LauncherKind::job);
  EXPECT_EQ(back.gpus, plan.gpus);
  ASSERT_EQ(back.runs.size(), 1u);
  ASSERT_EQ(back.runs[0].points.size(), 1u);
  EXPECT_EQ(back.runs[0].points[0].bytes, 1u << 20);
  EXPECT_EQ(back.runs[0].points[0].counts.param, (1u << 20) / 4);
}

TEST(JobHandoff, DoneEndsTheLoopAndGarbageIsAnError) {
  EXPECT_FALSE(fb::parse_job_plan_message(fb::kJobNoMorePlans).has_value());
  EXPECT_ANY_THROW(fb::parse_job_plan_message("{\"plan\": {}}"));  // no env
  EXPECT_ANY_THROW(fb::parse_job_plan_message("not json"));
}

TEST(JobHandoff, LocalRanksFollowHostsInRankOrder) {
  EXPECT_EQ(fb::local_ranks_of({"n1", "n1", "n2", "n2"}), (std::vector<int>{0, 1, 0, 1}));
  EXPECT_EQ(fb::local_ranks_of({"a", "b", "a", "c", "a"}), (std::vector<int>{0, 0, 1, 0, 2}));
  EXPECT_TRUE(fb::local_ranks_of({}).empty());
}
