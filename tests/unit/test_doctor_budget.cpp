// The doctor's budget on synthetic fabrics: a healthy NVLink pair (350 GB/s all_reduce busbw),
// NCCL over shared memory (27 GB/s, NCCL_P2P_DISABLE=1) and over sockets (3 GB/s, P2P and SHM
// disabled), as measured on 2 x H200 (issue 12).
#include <gtest/gtest.h>

#include <algorithm>

#include "bench/sampler.hpp"
#include "engine/plans/algos_runner.hpp"
#include "engine/pricing/doctor_budget.hpp"

namespace {

// 2 GPUs: all_reduce's bus factor is 1, algbw = busbw.
fb::FabricSpeed fabric(double gbps) {
  fb::FabricSpeed s;
  s.algbw_gbps = gbps;
  s.busbw_gbps = gbps;
  s.latency_us = 20;
  s.start_s = 2.0;
  return s;
}

fb::Sampling quick_sampling() {
  fb::Sampling s;
  s.max_time_s = 0.3;  // doctor --quick's collectives
  return s;
}

fb::AlgosGrid quick_grid() {
  return {
      {1ULL << 20, 256ULL << 20, 1ULL << 30}, {"Ring", "Tree", "default"}, {"default", "LL", "Simple"}, 0};
}

constexpr double kAlgosLeftS = 22;  // of a 40 s budget, after pairs (~5 s) and collectives (~13 s)

bool has(const std::vector<std::string>& v, const char* x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

TEST(DoctorBudget, OperationTimeFollowsTheMeasuredSpeed) {
  EXPECT_NEAR(fb::op_seconds(fabric(3), 3'000'000'000ULL), 1.0 + 20e-6, 1e-9);
  EXPECT_NEAR(fb::op_seconds(fabric(3), 3'000'000'000ULL, "LL"), 4.0 + 20e-6, 1e-9);
  EXPECT_NEAR(fb::op_seconds(fabric(350), 350'000'000ULL, "Simple"), 1e-3 + 20e-6, 1e-9);
  EXPECT_EQ(fb::op_seconds(fb::FabricSpeed{}, 1ULL << 30), 0.0);  // unknown speed: no estimate
}

TEST(DoctorBudget, PointTimeHonoursTheSamplersBudget) {
  const auto s = quick_sampling();
  // 0.36 s per operation: verify 1 + warm-up 2 + one batch (a second would pass 0.3 s).
  EXPECT_NEAR(fb::point_seconds(s, 0.36, true), 4 * 0.36, 1e-9);
  // 1 ms per operation: one per batch, 12 batches and the one queued ahead, after a 31 ms warm-up.
  EXPECT_NEAR(fb::point_seconds(s, 1e-3, false), 0.031 + 13e-3, 1e-9);
  // A noisy fabric where points took 40.2 batches on average: 41 of them and the one ahead.
  EXPECT_NEAR(fb::point_seconds(s, 1e-3, false, 40.2), 0.031 + 42e-3, 1e-9);
  // ... but never past the point's budget: 0.3 s holds 300 such batches, 200 is the cap.
  EXPECT_NEAR(fb::point_seconds(s, 1e-3, false, 1000), 0.031 + 201e-3, 1e-9);
}

TEST(DoctorBudget, HealthyMachineKeepsTheWholeGrid) {
  std::vector<fb::DoctorCut> cuts;
  const auto grid = fb::fit_algos(quick_grid(), fabric(350), quick_sampling(), kAlgosLeftS, cuts);
  EXPECT_TRUE(cuts.empty());
  EXPECT_EQ(grid.sizes.size(), 3u);
  EXPECT_EQ(grid.low_latency_max_bytes, 0u);
  EXPECT_LE(fb::estimate_algos_s(grid, fabric(350), quick_sampling()), kAlgosLeftS);
}

using Pairs = std::vector<std::pair<std::string, std::string>>;

TEST(DoctorBudget, OneAxisGridForcesEachAlgorithmAndEachProtocolOnce) {
  const std::vector<std::string> algos{"Ring", "Tree"};
  const std::vector<std::string> protos{"LL", "LL128", "Simple"};
  EXPECT_EQ(fb::forced_pairs(algos, protos, true), (Pairs{{"Ring", "default"},
                                                          {"Tree", "default"},
                                                          {"default", "LL"},
                                                          {"default", "LL128"},
                                                          {"default", "Simple"}}));
  EXPECT_EQ(fb::forced_pairs(algos, protos, false).size(), 6u);
  // "default" in a crossed list leaves that half to NCCL; default/default is NCCL's own run.
  EXPECT_EQ(fb::forced_pairs({"Ring", "default"}, {"default", "LL"}, false),
            (Pairs{{"Ring", "default"}, {"Ring", "LL"}, {"default", "LL"}}));
  fb::AlgosGrid crossed{{1ULL << 20, 256ULL << 20}, algos, protos, 0, false};
  fb::AlgosGrid one_axis = crossed;
  one_axis.one_axis = true;
  const auto s = quick_sampling();
  EXPECT_LT(fb::estimate_algos_s(one_axis, fabric(350), s), fb::estimate_algos_s(crossed, fabric(350), s));
}

TEST(DoctorBudget, SlowerFabricsEstimateLonger) {
  const auto s = quick_sampling();
  const double healthy = fb::estimate_algos_s(quick_grid(), fabric(350), s);
  const double shm = fb::estimate_algos_s(quick_grid(), fabric(27), s);
  const double socket = fb::estimate_algos_s(quick_grid(), fabric(3), s);
  EXPECT_LT(healthy, shm);
  EXPECT_LT(shm, socket);
  EXPECT_GT(socket, kAlgosLeftS);  // uncut, it would blow the budget
}

// Every fabric: the cut grid fits, and keeps what the algorithm verdicts need (NCCL's default
// always runs; the smallest size stays).
TEST(DoctorBudget, EveryFabricFitsAndKeepsTheDefault) {
  for (const double gbps : {350.0, 27.0, 3.0}) {
    std::vector<fb::DoctorCut> cuts;
    const auto speed = fabric(gbps);
    const auto grid = fb::fit_algos(quick_grid(), speed, quick_sampling(), kAlgosLeftS, cuts);
    EXPECT_LE(fb::estimate_algos_s(grid, speed, quick_sampling()), kAlgosLeftS) << gbps;
    EXPECT_EQ(grid.sizes.front(), 1ULL << 20) << gbps;
    EXPECT_GE(grid.sizes.size(), 2u) << gbps;
    for (const auto& c : cuts) {
      EXPECT_EQ(c.stage, "algorithms");
      EXPECT_NE(c.why.find("GB/s"), std::string::npos) << c.why;
    }
  }
}

TEST(DoctorBudget, SocketFabricCutsLowLatencyAndTheLargestSizeFirst) {
  std::vector<fb::DoctorCut> cuts;
  const auto grid = fb::fit_algos(quick_grid(), fabric(3), quick_sampling(), kAlgosLeftS, cuts);
  ASSERT_GE(cuts.size(), 2u);
  EXPECT_EQ(cuts[0].what, "forced LL/LL128 above 16 MiB");
  EXPECT_EQ(cuts[1].what, "1 GiB points");
  EXPECT_EQ(grid.low_latency_max_bytes, 16ULL << 20);
  EXPECT_EQ(grid.sizes, (std::vector<std::uint64_t>{1ULL << 20, 256ULL << 20}));
}

TEST(DoctorBudget, ImpossibleBudgetLeavesTheDefaultAlone) {
  std::vector<fb::DoctorCut> cuts;
  const auto grid = fb::fit_algos(quick_grid(), fabric(3), quick_sampling(), 1.0, cuts);
  EXPECT_FALSE(has(grid.protos, "LL"));
  EXPECT_FALSE(has(grid.protos, "Simple"));
  EXPECT_FALSE(has(grid.algos, "Ring"));
  EXPECT_FALSE(has(grid.algos, "Tree"));
  EXPECT_EQ(grid.sizes.size(), 2u);
  EXPECT_GE(cuts.size(), 6u);  // LL limit, 1 GiB, LL, Simple, Tree, Ring: each said once
}

TEST(DoctorBudget, ScalingShrinksItsSizeOnASlowFabric) {
  std::vector<fb::DoctorCut> cuts;
  const std::vector<int> counts{2, 4, 8};
  const auto s = quick_sampling();
  EXPECT_EQ(fb::fit_scaling(256ULL << 20, counts, fabric(350), s, 20, cuts), 256ULL << 20);
  EXPECT_TRUE(cuts.empty());
  const auto bytes = fb::fit_scaling(1ULL << 30, counts, fabric(3), s, 15, cuts);
  EXPECT_EQ(bytes, 256ULL << 20);  // 1 GiB: about 18 s (six groups of 2 s start and 1 s of points)
  ASSERT_EQ(cuts.size(), 1u);
  EXPECT_EQ(cuts[0].stage, "scaling");
  EXPECT_LE(fb::estimate_scaling_s(bytes, counts, fabric(3), s), 15);
  cuts.clear();  // the floor: never below 64 MiB, even where the start-ups alone overrun
  EXPECT_EQ(fb::fit_scaling(1ULL << 30, counts, fabric(3), s, 5, cuts), 64ULL << 20);
  EXPECT_EQ(cuts.size(), 2u);
}

// The algorithms stage starts one set of workers per configuration (the logged probe ran
// before, in the choices stage): default, Ring, Tree, LL and Simple here.
TEST(DoctorBudget, AlgorithmsEstimatePaysOneStartPerConfiguration) {
  fb::AlgosGrid grid{{1ULL << 20}, {"Ring", "Tree"}, {"LL", "Simple"}, 0, true};
  auto speed = fabric(350);
  const double two_s = fb::estimate_algos_s(grid, speed, quick_sampling());
  speed.start_s = 3.0;
  EXPECT_NEAR(fb::estimate_algos_s(grid, speed, quick_sampling()) - two_s, 5.0, 1e-9);
}

TEST(DoctorBudget, ProbeStartIsItsWallTimeLessItsOperations) {
  std::vector<fb::Point> ops(3);
  for (auto& p : ops) {  // one timed operation each, no warm-up: as the probe runs them
    p.time_us.n = 1;
    p.iters_per_batch = 1;
  }
  ops[0].time_us.median = 180'000;  // 1 MiB, with NCCL's first use of LL
  ops[1].time_us.median = 90'000;   // 256 MiB at 3 GB/s
  ops[2].time_us.median = 360'000;  // 1 GiB
  ops[2].sampling = fb::PointSampling{.warmup_ops = 0, .warmup_ms = 20};
  EXPECT_NEAR(fb::probe_start_seconds(ops, 1.7), 1.7 - 0.18 - 0.09 - 0.36 - 0.02, 1e-9);
  EXPECT_DOUBLE_EQ(fb::probe_start_seconds(ops, 0.9), fb::kMinStartS);  // never below
}

TEST(DoctorBudget, FabricSpeedComesFromTheAllReducePoints) {
  fb::Run ar;
  ar.collective = "all_reduce";
  fb::Point small;
  small.bytes = 1 << 20;
  small.time_us.median = 25;
  small.time_us.n = 30;
  small.iters_per_batch = 40;
  small.sampling = fb::PointSampling{.warmup_ops = 0, .warmup_ms = 31};
  small.algbw_gbps = 40;
  small.busbw_gbps = 40;
  fb::Point large = small;
  large.bytes = 1 << 30;
  large.time_us.median = 358'000;
  large.time_us.n = 6;
  large.iters_per_batch = 1;
  large.sampling->warmup_ms = 716;
  large.sampling->stop = "budget";  // its --max-time ended it: its 6 batches are not a need
  large.algbw_gbps = 3;
  large.busbw_gbps = 3;
  ar.points = {small, large};
  fb::Run other = ar;
  other.collective = "all_gather";
  other.points[0].algbw_gbps = 99;  // not all_reduce: not the speed
  const auto speed = fb::measure_fabric({ar, other});
  EXPECT_DOUBLE_EQ(speed.algbw_gbps, 3);
  EXPECT_DOUBLE_EQ(speed.busbw_gbps, 3);
  EXPECT_DOUBLE_EQ(speed.latency_us, 25);
  EXPECT_DOUBLE_EQ(speed.batches, 30);  // every collective's points the budget did not stop
}

}  // namespace

// The choices stage before it has run: the prior cost of a set of workers and one operation per
// size. At 3 GB/s (sockets) the 1 GiB operation alone is 0.36 s; at 350 GB/s the sizes cost little.
TEST(DoctorBudget, ChoicesEstimateIsOneStartAndOneOperationPerSize) {
  const std::vector<std::uint64_t> sizes{1ULL << 20, 256ULL << 20, 1ULL << 30};
  const double bytes = (1 << 20) + (256 << 20) + (1 << 30);
  EXPECT_NEAR(fb::estimate_choices_s(sizes, fabric(3)), 2.0 + 3 * 20e-6 + bytes / 3e9, 1e-9);
  EXPECT_NEAR(fb::estimate_choices_s(sizes, fabric(350)), 2.0 + 3 * 20e-6 + bytes / 350e9, 1e-9);
  EXPECT_DOUBLE_EQ(fb::estimate_choices_s({}, fabric(350)), 2.0);
}
