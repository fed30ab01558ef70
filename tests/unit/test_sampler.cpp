// The sampler on synthetic timing streams, fed as the driver feeds it (bench/collective_driver.cpp):
// warm-up chunks timed on the host, then timed batches of ops_per_batch operations whose
// per-operation time and elapsed wall time go to the BatchSampler.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>

#include "bench/sampler.hpp"

namespace {

// Per-operation time (seconds) of the batch with this index (-1: warm-up).
using OpTime = std::function<double(int batch)>;

constexpr double kSyncOverheadS = 30e-6;  // host synchronize + allgather per chunk or batch

struct Simulated {
  int warmup_ops = 0;
  int warmup_chunks = 0;
  double warmup_s = 0;
  int ops_per_batch = 0;
  int batches = 0;
  double elapsed_s = 0;     // batch phase, as the sampler saw it when it stopped
  double last_batch_s = 0;  // wall time of the last batch
  fb::TimeStats stats;
  fb::PointSampling summary;
};

Simulated simulate(const fb::Sampling& s, const OpTime& op_time) {
  Simulated out;
  fb::WarmupPlanner warmup(s);
  for (int chunk = warmup.next_chunk(); chunk > 0; chunk = warmup.next_chunk()) {
    const double first_use = warmup.ops() == 0 ? 0.05 : 0.0;  // NCCL's connection set-up
    warmup.add(chunk, chunk * op_time(-1) + first_use + kSyncOverheadS);
    ++out.warmup_chunks;
    if (out.warmup_chunks > 100) break;  // a runaway warm-up fails the test below
  }
  out.warmup_ops = warmup.ops();
  out.warmup_s = warmup.seconds();
  out.ops_per_batch = fb::ops_per_batch(s, warmup.per_op_s());
  fb::BatchSampler sampler(s);
  for (bool done = false; !done && out.batches < 100000; ++out.batches) {
    const double per_op = op_time(out.batches);
    out.last_batch_s = per_op * out.ops_per_batch + kSyncOverheadS;
    out.elapsed_s += out.last_batch_s;
    sampler.add(per_op * 1e6);
    done = sampler.done(out.elapsed_s);
  }
  out.stats = sampler.stats();
  out.summary = sampler.summary(out.warmup_ops, out.warmup_s);
  return out;
}

fb::Sampling by_time() { return {}; }  // the defaults: -n and -w left out

// What every stream must satisfy: the budget overrun by one batch at most, and an interval
// claimed only where it was reached.
void expect_honest(const fb::Sampling& s, const Simulated& r) {
  EXPECT_GE(r.batches, 1);
  EXPECT_LE(r.elapsed_s, s.max_time_s + r.last_batch_s);
  if (r.summary.ci_met) {
    EXPECT_LE(r.stats.median_ci, s.target_ci);
    EXPECT_EQ(r.summary.stop, "target");
  } else {
    EXPECT_FALSE(r.stats.median_ci <= s.target_ci);
  }
}

TEST(Sampler, NoisyStreamStopsAtTheTarget) {
  std::mt19937 rng(7);
  std::normal_distribution<double> noise(0.0, 0.03);  // +-3% per batch
  const auto s = by_time();
  const auto r = simulate(s, [&](int) { return 20e-6 * (1 + noise(rng)); });
  expect_honest(s, r);
  EXPECT_TRUE(r.summary.ci_met);
  EXPECT_EQ(r.summary.stop, "target");
  EXPECT_LE(r.stats.median_ci, 0.01);
  EXPECT_GE(r.batches, s.min_batches);
  EXPECT_LT(r.elapsed_s, s.max_time_s / 2);  // reached well before the budget
}

TEST(Sampler, SteadyStreamNeedsOnlyTheMinimumBatches) {
  const auto s = by_time();
  const auto r = simulate(s, [](int b) { return 12e-3 * (1 + 1e-4 * (b % 3)); });  // 4 GiB all_reduce
  expect_honest(s, r);
  EXPECT_EQ(r.ops_per_batch, 1);
  EXPECT_EQ(r.batches, 6);
  EXPECT_EQ(r.summary.stop, "target");
}

TEST(Sampler, FullWindowMeasuresTheWholeBudgetEvenOnASteadyStream) {
  // The stream that stops after 6 batches above measures all of its 1 s budget in a full window:
  // the last batch starts only where it ends inside the budget.
  auto s = by_time();
  s.full_window = true;
  s.max_batches = 100000;
  const auto r = simulate(s, [](int b) { return 12e-3 * (1 + 1e-4 * (b % 3)); });
  EXPECT_EQ(r.summary.stop, "budget");
  EXPECT_GT(r.elapsed_s, s.max_time_s - 2 * r.last_batch_s);
  EXPECT_LE(r.elapsed_s, s.max_time_s + r.last_batch_s);
  EXPECT_GT(r.batches, 70);  // 1 s of 12 ms batches
  EXPECT_LE(r.stats.median_ci, 0.01);
}

TEST(Sampler, DriftingStreamStopsOnTheBudgetWithoutClaimingTheTarget) {
  auto s = by_time();
  s.max_batches = 1000;
  const auto r = simulate(s, [](int b) { return 100e-6 * (1 + 0.01 * b); });  // +1% per batch
  expect_honest(s, r);
  EXPECT_FALSE(r.summary.ci_met);
  EXPECT_EQ(r.summary.stop, "budget");
  EXPECT_GT(r.stats.median_ci, 0.01);
  EXPECT_GT(r.summary.last_batch_us, r.summary.first_batch_us);  // the drift shows
}

TEST(Sampler, BimodalStreamKeepsItsWideInterval) {
  const auto s = by_time();
  const auto r = simulate(s, [](int b) { return b % 2 ? 100e-6 : 150e-6; });
  expect_honest(s, r);
  EXPECT_FALSE(r.summary.ci_met);
  EXPECT_NE(r.summary.stop, "target");
  EXPECT_GT(r.stats.median_ci, 0.1);
}

TEST(Sampler, OperationLongerThanTheBudgetGetsOneBatch) {
  const auto s = by_time();
  const auto r = simulate(s, [](int) { return 2.5; });  // 1 GiB all_reduce at 3 GB/s, and worse
  expect_honest(s, r);
  EXPECT_EQ(r.warmup_ops, 2);  // no more than the two the first use needs
  EXPECT_EQ(r.ops_per_batch, 1);
  EXPECT_EQ(r.batches, 1);
  EXPECT_EQ(r.summary.stop, "budget");
  EXPECT_FALSE(r.summary.ci_met);
  EXPECT_TRUE(std::isinf(r.stats.median_ci));  // one sample bounds nothing: written as null
}

TEST(Sampler, BudgetCutsAPointBeforeItsMinimumBatches) {
  const auto s = by_time();
  const auto r = simulate(s, [](int) { return 0.3; });
  expect_honest(s, r);
  EXPECT_EQ(r.batches, 3);  // a fourth would end at 1.2 s
  EXPECT_LE(r.elapsed_s, s.max_time_s);
  EXPECT_EQ(r.summary.stop, "budget");
  EXPECT_TRUE(std::isinf(r.stats.median_ci));
}

TEST(Sampler, SubMicrosecondOperationsFillTheLargestBatch) {
  const auto s = by_time();
  const auto r = simulate(s, [](int b) { return 0.5e-6 * (1 + 0.002 * (b % 5)); });
  expect_honest(s, r);
  EXPECT_EQ(r.ops_per_batch, 1000);  // the cap: 1000 x 0.5 us is half a millisecond
  EXPECT_GE(r.warmup_s, s.warmup_s);
  EXPECT_LT(r.warmup_s, 4 * s.warmup_s);  // aimed at the target, not doubled past it
  EXPECT_LE(r.warmup_chunks, 8);
  EXPECT_TRUE(r.summary.ci_met);
}

TEST(Sampler, WarmUpCoversFirstUseAndTwoOperations) {
  const auto s = by_time();
  const auto r = simulate(s, [](int) { return 5e-3; });
  EXPECT_GE(r.warmup_ops, 2);
  EXPECT_GE(r.warmup_s, s.warmup_s);
  EXPECT_EQ(r.summary.warmup_ops, r.warmup_ops);
  EXPECT_DOUBLE_EQ(r.summary.warmup_ms, r.warmup_s * 1e3);
}

// A stall in the warm-up's last chunk (the host preempted for 25 ms) must not size the batches:
// they come from the fastest chunk after the first, here 256 operations of 8 us.
TEST(Sampler, WarmUpStallDoesNotShrinkTheBatches) {
  const auto s = by_time();
  fb::WarmupPlanner warmup(s);
  warmup.add(1, 0.05);                           // NCCL's first use
  warmup.add(1, 8e-6 + kSyncOverheadS);          // one steady operation and its synchronize
  warmup.add(256, 256 * 8e-6 + kSyncOverheadS);  // full launch rate
  warmup.add(3000, 3000 * 8e-6 + 0.025);         // the stalled last chunk: 16.3 us per operation
  EXPECT_NEAR(warmup.per_op_s(), 8e-6 + kSyncOverheadS / 256, 1e-12);
  EXPECT_EQ(fb::ops_per_batch(s, warmup.per_op_s()), 124);  // 1 ms / 8.117 us, not 62
  fb::WarmupPlanner first_only(s);
  first_only.add(1, 0.012);  // -w 0: the one probe operation is all there is
  EXPECT_DOUBLE_EQ(first_only.per_op_s(), 0.012);
}

// Each chunk's synchronize costs 0.5 ms (processes at times on 2 x H200), NCCL's first use 50 ms:
// a lone steady operation's chunk then passes half a batch, yet says nothing of the launch
// rate. The warm-up goes on until a chunk spreads it thin: batches near 1 ms of 6 us operations.
TEST(Sampler, SlowSynchronizeDoesNotSizeTheBatches) {
  const auto s = by_time();
  fb::WarmupPlanner warmup(s);
  int chunks = 0;
  for (int n = warmup.next_chunk(); n > 0 && chunks < 100; n = warmup.next_chunk(), ++chunks)
    warmup.add(n, n * 6e-6 + 0.5e-3 + (chunks == 0 ? 0.05 : 0));
  EXPECT_LE(chunks, 8);
  const int ops = fb::ops_per_batch(s, warmup.per_op_s());
  EXPECT_GE(ops, 120) << "per operation " << warmup.per_op_s() * 1e6 << " us";  // 1 ms / 6 us = 167
  EXPECT_LE(ops, 167);
  EXPECT_LT(warmup.seconds(), 0.1);  // first use 50 ms, then a few ms
}

TEST(Sampler, OpsPerBatchAimAtAMillisecond) {
  const auto s = by_time();
  EXPECT_EQ(fb::ops_per_batch(s, 12e-3), 1);
  EXPECT_EQ(fb::ops_per_batch(s, 1.5e-3), 1);
  EXPECT_EQ(fb::ops_per_batch(s, 0.3e-3), 4);  // 1.2 ms: at least the target
  EXPECT_EQ(fb::ops_per_batch(s, 20e-6), 50);
  EXPECT_EQ(fb::ops_per_batch(s, 8e-6), 125);
  EXPECT_EQ(fb::ops_per_batch(s, 0.1e-6), 1000);
  EXPECT_EQ(fb::ops_per_batch(s, 0), 1000);  // below the timer: as many as allowed
}

TEST(Sampler, ExplicitItersAndWarmupKeepTheirMeaning) {
  auto s = by_time();
  s.iters = 20;
  s.warmup = 5;
  EXPECT_EQ(fb::ops_per_batch(s, 12e-3), 20);
  const auto r = simulate(s, [](int) { return 1e-6; });
  EXPECT_EQ(r.warmup_ops, 5);
  EXPECT_EQ(r.warmup_chunks, 1);
  EXPECT_EQ(r.ops_per_batch, 20);

  s.warmup = 0;
  EXPECT_EQ(fb::WarmupPlanner(s).next_chunk(), 0);  // -w 0 -n 20: straight to timing
  s.iters = 0;
  fb::WarmupPlanner probe(s);  // -w 0 alone: one operation to size the batches
  EXPECT_EQ(probe.next_chunk(), 1);
  probe.add(1, 2e-3);
  EXPECT_EQ(probe.next_chunk(), 0);
  EXPECT_EQ(fb::ops_per_batch(s, probe.per_op_s()), 1);
}

TEST(Sampler, FixedCountWhenTargetIsZero) {
  auto s = by_time();
  s.target_ci = 0;
  const auto r = simulate(s, [](int b) { return b % 2 ? 100e-6 : 150e-6; });
  EXPECT_EQ(r.batches, s.min_batches);
  EXPECT_EQ(r.summary.stop, "count");
  EXPECT_FALSE(r.summary.ci_met);
}

TEST(Sampler, StopsAtMaxBatches) {
  auto s = by_time();
  s.max_batches = 8;
  s.max_time_s = 100;
  const auto r = simulate(s, [](int b) { return b % 2 ? 100e-6 : 150e-6; });
  EXPECT_EQ(r.batches, 8);
  EXPECT_EQ(r.summary.stop, "max_batches");
  EXPECT_FALSE(r.summary.ci_met);
}

TEST(Sampler, NeverStopsBeforeMinBatchesWithinTheBudget) {
  fb::BatchSampler s(by_time());
  for (int i = 0; i < 5; ++i) {
    s.add(10.0);  // identical samples: the interval needs 6 to exist
    EXPECT_FALSE(s.done(0.01 * (i + 1)));
  }
  s.add(10.0);
  EXPECT_TRUE(s.done(0.06));
  EXPECT_EQ(s.stop(), fb::SamplingStop::target);
}

}  // namespace
