#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/stats.hpp"

TEST(Stats, SummaryOfHandComputedSamples) {
  // Sorted: 1 2 3 4 100. Median 3, mean 22, p99 = 4 + 0.96*(100-4) = 96.16.
  const auto s = fb::summarize({4, 1, 100, 3, 2});
  EXPECT_EQ(s.n, 5);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 100);
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.mean, 22);
  EXPECT_NEAR(s.p99, 96.16, 1e-9);
  EXPECT_TRUE(std::isinf(s.median_ci));  // too few samples to bound the median
}

TEST(Stats, EvenCountMedianInterpolates) {
  const auto s = fb::summarize({10, 20, 30, 40});
  EXPECT_DOUBLE_EQ(s.median, 25);
}

TEST(Stats, EmptyIsAllZero) {
  const auto s = fb::summarize({});
  EXPECT_EQ(s.n, 0);
  EXPECT_EQ(s.median, 0);
}

TEST(Stats, MedianConfidenceIntervalFromOrderStatistics) {
  // n = 16: ranks floor(8 - 0.98*4) = 4 and ceil(9 + 3.92) = 13 (1-based).
  std::vector<double> v;
  for (int i = 1; i <= 16; ++i) v.push_back(100 + i);  // 101..116, median 108.5
  const double ci = fb::median_ci_relative(v);
  EXPECT_NEAR(ci, (113.0 - 104.0) / (2 * 108.5), 1e-12);
}

TEST(Stats, IdenticalSamplesHaveZeroInterval) {
  const auto s = fb::summarize(std::vector<double>(10, 5.0));
  EXPECT_DOUBLE_EQ(s.median_ci, 0.0);
}
