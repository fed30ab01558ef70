#include <gtest/gtest.h>

#include "bench/sampler.hpp"

namespace {
fb::Sampling adaptive() {
  fb::Sampling s;
  s.min_batches = 5;
  s.max_batches = 50;
  s.target_ci = 0.01;
  s.max_time_s = 10;
  return s;
}
}  // namespace

TEST(Sampler, NeverStopsBeforeMinBatches) {
  fb::BatchSampler s(adaptive());
  for (int i = 0; i < 4; ++i) {
    s.add(10.0);
    EXPECT_FALSE(s.done(100.0));  // even past the time budget
  }
}

TEST(Sampler, FixedCountWhenTargetIsZero) {
  auto cfg = adaptive();
  cfg.target_ci = 0;
  fb::BatchSampler s(cfg);
  for (int i = 0; i < 4; ++i) s.add(10.0 + i * 5);
  EXPECT_FALSE(s.done(0));
  s.add(1000);
  EXPECT_TRUE(s.done(0));
}

TEST(Sampler, StopsOnceMedianIsTight) {
  fb::BatchSampler s(adaptive());
  // Stable samples: the interval of the median needs 6 samples to exist, then is ~0.
  for (int i = 0; i < 5; ++i) s.add(100.0 + 0.01 * i);
  EXPECT_FALSE(s.done(0));
  s.add(100.02);
  EXPECT_TRUE(s.done(0));
}

TEST(Sampler, KeepsSamplingNoisyPointsUntilBudget) {
  fb::BatchSampler s(adaptive());
  for (int i = 0; i < 20; ++i) s.add(i % 2 ? 100.0 : 150.0);  // +-20% noise
  EXPECT_FALSE(s.done(1.0));
  EXPECT_TRUE(s.done(10.0));  // time budget spent
}

TEST(Sampler, StopsAtMaxBatches) {
  auto cfg = adaptive();
  cfg.max_batches = 8;
  fb::BatchSampler s(cfg);
  for (int i = 0; i < 7; ++i) s.add(i % 2 ? 100.0 : 150.0);
  EXPECT_FALSE(s.done(0));
  s.add(100);
  EXPECT_TRUE(s.done(0));
}
