// The tail's single-operation times (bench/iteration_times.hpp): which operations are timed one by
// one, and their summary by nccl-tests -I's conventions (p50 = sorted[n/2], p99 by nearest rank).
#include <gtest/gtest.h>

#include <numeric>

#include "bench/iteration_times.hpp"

namespace {

TEST(IterationTimes, ByTimeFillsFiftyMillisecondsFrom100To200) {
  const fb::Sampling s;
  // 7 us operations (1 MiB on one H200), 143 per batch: 50 ms would hold 7142, 200 is the cap.
  EXPECT_EQ(fb::plan_tail(s, 7e-6, 143).events, 200);
  EXPECT_FALSE(fb::plan_tail(s, 7e-6, 143).from_batches);
  // 0.3 ms operations, 4 per batch: 50 ms holds 166.
  EXPECT_EQ(fb::plan_tail(s, 0.3e-3, 4).events, 166);
  // 0.508 ms operations (1 GiB on one H200), 2 per batch: 50 ms holds 98, but 100 are the fewest
  // whose p99 is not the max.
  EXPECT_EQ(fb::plan_tail(s, 0.508e-3, 2).events, 100);
  // One operation per batch: the batches are the single operations, nothing more is run.
  EXPECT_TRUE(fb::plan_tail(s, 3.2e-3, 1).from_batches);
  EXPECT_EQ(fb::plan_tail(s, 3.2e-3, 1).events, 0);
  // -n 2 at 0.9 ms: 100 (90 ms); at 5 ms: 100 would take 0.5 s, so 10 (50 ms); at 80 ms: one.
  EXPECT_EQ(fb::plan_tail(s, 0.9e-3, 2).events, 100);
  EXPECT_EQ(fb::plan_tail(s, 5e-3, 2).events, 10);
  EXPECT_EQ(fb::plan_tail(s, 0.08, 2).events, 1);
}

TEST(IterationTimes, ExplicitCountOffAndGraphs) {
  fb::Sampling s;
  s.tail_iters = 500;  // --tail-iters 500: exactly 500, past the by-time cap, even at one per batch
  EXPECT_EQ(fb::plan_tail(s, 3.2e-3, 1).events, 500);
  EXPECT_FALSE(fb::plan_tail(s, 3.2e-3, 1).from_batches);
  s.tail_iters = 0;  // --tail-iters 0 / -I 0
  EXPECT_EQ(fb::plan_tail(s, 7e-6, 143).events, 0);
  EXPECT_FALSE(fb::plan_tail(s, 3.2e-3, 1).from_batches);
  s.tail_iters = -1;
  s.graph_launches = 10;  // -G: a graph times its whole batch, as nccl-tests turns -I off with -G
  EXPECT_EQ(fb::plan_tail(s, 7e-6, 143).events, 0);
  EXPECT_FALSE(fb::plan_tail(s, 3.2e-3, 1).from_batches);
}

TEST(IterationTimes, NearestRankPercentilesAsNcclTests) {
  // 200 samples 1..200 us, shuffled: p50 = sorted[100] = 101, p99 = the 198th = 198, max 200.
  std::vector<double> v(200);
  std::iota(v.begin(), v.end(), 1.0);
  std::rotate(v.begin(), v.begin() + 77, v.end());
  const auto t = fb::summarize_iterations("events", v);
  EXPECT_EQ(t.source, "events");
  EXPECT_EQ(t.n, 200);
  EXPECT_DOUBLE_EQ(t.p50_us, 101);
  EXPECT_DOUBLE_EQ(t.p99_us, 198);
  EXPECT_DOUBLE_EQ(t.max_us, 200);
  EXPECT_EQ(t.samples_us, v);  // kept in the order taken
}

TEST(IterationTimes, FewSamplesP99IsTheMax) {
  // 7 samples: ceil(0.99 * 7) = 7, the largest; p50 = sorted[3].
  const auto t = fb::summarize_iterations("batches", {3230, 3241, 3236, 3300, 3233, 3238, 3235});
  EXPECT_DOUBLE_EQ(t.p50_us, 3236);
  EXPECT_DOUBLE_EQ(t.p99_us, 3300);
  EXPECT_DOUBLE_EQ(t.max_us, 3300);
  EXPECT_EQ(fb::summarize_iterations("events", {}).n, 0);
}

}  // namespace
