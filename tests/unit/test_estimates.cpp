// The up-front estimates (engine/pricing/estimates.hpp) on hand-made machines, against hand-computed
// figures: one H200 on PCIe Gen5 x16, and an NV18 pair.
#include <gtest/gtest.h>

#include "bench/sampler.hpp"
#include "engine/pricing/estimates.hpp"

namespace {

fb::Topology gpus_on_gen5(int n, double sm_ceiling) {
  fb::Topology t;
  for (int i = 0; i < n; ++i) {
    fb::TopoGpu g;
    g.index = i;
    g.pcie = {32.0, 32.0, 16, 16, 5, 5};  // 63.0 GB/s per direction
    t.gpus.push_back(g);
  }
  if (n == 2) {
    fb::TopoPair p;
    p.a = 0;
    p.b = 1;
    p.connection = fb::Connection::nvlink(18);
    p.wire_gbps = 450;
    p.sm_ceiling_gbps = sm_ceiling;
    p.ce_ceiling_gbps = 396;
    t.pairs.push_back(p);
  }
  return t;
}

}  // namespace

TEST(Estimates, PriorSpeedFromTheTopologyAndNcclSettings) {
  const auto one = fb::prior_speed(gpus_on_gen5(1, 0), {0}, {});
  EXPECT_DOUBLE_EQ(one.algbw_gbps, 1000);  // a copy within the GPU's memory
  EXPECT_DOUBLE_EQ(one.start_s, 0.7);
  const auto two = fb::prior_speed(gpus_on_gen5(2, 400), {0, 1}, {});
  EXPECT_DOUBLE_EQ(two.busbw_gbps, 340);  // 85% of the ring's 400 GB/s SM ceiling
  EXPECT_DOUBLE_EQ(two.algbw_gbps, 340);  // all_reduce on 2 GPUs: bus factor 1
  EXPECT_DOUBLE_EQ(two.start_s, 1.05);
  EXPECT_DOUBLE_EQ(fb::after_other_workers(two).start_s, 1.45);  // waits for the previous set's exit
  EXPECT_DOUBLE_EQ(fb::prior_speed(gpus_on_gen5(2, 400), {0, 1}, {{"NCCL_P2P_DISABLE", "1"}}).busbw_gbps, 25);
  EXPECT_DOUBLE_EQ(
      fb::prior_speed(gpus_on_gen5(2, 400), {0, 1}, {{"NCCL_P2P_DISABLE", "1"}, {"NCCL_SHM_DISABLE", "1"}})
          .busbw_gbps,
      2);
  fb::Topology unknown = gpus_on_gen5(2, 400);
  unknown.pairs.clear();  // no pair read: no ceiling, the unknown path's 10 GB/s
  EXPECT_DOUBLE_EQ(fb::prior_speed(unknown, {0, 1}, {}).busbw_gbps, 10);
}

TEST(Estimates, PlanIsOneSetOfWorkersAndEachPointAtItsBusBytes) {
  fb::Plan plan;
  plan.gpus = {0, 1};
  plan.runs = {{"all_reduce"}, {"all_gather"}};
  for (auto& run : plan.runs) run.points = fb::expand_points(run, {1ULL << 30}, {false}, plan.nranks());
  fb::FabricSpeed speed;
  speed.busbw_gbps = 340;
  speed.algbw_gbps = 340;
  speed.latency_us = 20;
  speed.start_s = 1.05;
  // 1 GiB: all_reduce moves 1 x 1 GiB of bus bytes on 2 GPUs, all_gather 1/2 x 1 GiB.
  const double ar = fb::point_seconds(plan.settings.sampling, 20e-6 + 1.073741824 / 340, false);
  const double ag = fb::point_seconds(plan.settings.sampling, 20e-6 + 0.536870912 / 340, false);
  EXPECT_NEAR(fb::estimate_plan_s(plan, speed), 1.05 + ar + ag, 1e-9);
  plan.settings.check = true;  // verified: one more operation each
  EXPECT_NEAR(fb::estimate_plan_s(plan, speed), 1.05 + ar + ag + 20e-6 * 2 + 1.610612736 / 340, 1e-9);
}

TEST(Estimates, OneGpuP2pByHand) {
  fb::P2pPlan plan;  // 512 MiB, 16 copies x 5 samples, host tests and latency
  plan.gpus = {0};
  // Each test moves 80 x 512 MiB = 42.95 GB: h2d and d2h by copy engine at 88% of 63.0 GB/s
  // (1.549 s) and by SM copy at 84% (1.623 s), the memory copy at 1000 GB/s (0.043 s); the host
  // fills 512 MiB at 1 GB/s (0.537 s), clears and checks it 4 times at 10 GB/s (0.215 s), pins it
  // at 1 GB/s (0.537 s); 5 chases of 100,000 hops at 1.2 us (0.6 s); set-up 0.201 s.
  EXPECT_NEAR(fb::estimate_p2p_s(plan, gpus_on_gen5(1, 0)), 5.305, 0.005);
  plan.latency = false;
  EXPECT_NEAR(fb::estimate_p2p_s(plan, gpus_on_gen5(1, 0)), 4.705, 0.005);
}

// An operation bound by the launch rate takes many batches before its median is known to +-1%
// (8 B - 4 MiB on one H200: 11-200, mean 130; priced at 80); one bound by its bytes the sampler's
// usual count.
TEST(Estimates, LaunchBoundPointsExpectManyBatches) {
  fb::Plan plan;
  plan.gpus = {0};
  plan.runs = {{"all_reduce"}};
  plan.runs[0].points = fb::expand_points(plan.runs[0], {8, 1ULL << 30}, {false}, plan.nranks());
  const auto speed = fb::prior_speed(gpus_on_gen5(1, 0), {0}, {});  // 1000 GB/s, 6 us, 0.7 s
  const double small = fb::point_seconds(plan.settings.sampling, 6e-6 + 8e-9 / 1000, false, 80);
  const double large = fb::point_seconds(plan.settings.sampling, 6e-6 + 1.073741824 / 1000, false);
  EXPECT_NEAR(fb::estimate_plan_s(plan, speed), 0.7 + small + large, 1e-9);
  EXPECT_GT(small, 0.1);  // 80 batches of about 1 ms, after a 31 ms warm-up
  EXPECT_LT(large, 0.06);
}
