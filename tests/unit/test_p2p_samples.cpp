// A p2p figure from its samples and when they are enough (bench/p2p_samples.hpp), and what
// `p2p --samples N` asks for, against hand-computed values.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <vector>

#include "bench/p2p_samples.hpp"
#include "cli/p2p_cli.hpp"

namespace {

fb::P2pPlan default_plan() { return {}; }

TEST(P2pSamples, TheMedianOfAnEvenCountIsTheMeanOfTheMiddleTwo) {
  // Sorted: 53, 54, 54.5, 55, 55.5, 56: the middle two are 54.5 and 55.
  const auto m = fb::summarize_samples(fb::P2pTest::h2d, -1, 0, {54.0, 55.0, 53.0, 56.0, 55.5, 54.5});
  EXPECT_DOUBLE_EQ(m.value, 54.75);
  EXPECT_DOUBLE_EQ(m.min, 53.0);
  EXPECT_DOUBLE_EQ(m.max, 56.0);
  EXPECT_EQ(m.samples, 6);
  EXPECT_EQ(fb::summarize_samples(fb::P2pTest::h2d, -1, 0, {3.0, 1.0, 2.0}).value, 2.0);
}

TEST(P2pSamples, SixSteadySamplesSettleAndADipKeepsSampling) {
  const auto plan = default_plan();
  ASSERT_EQ(plan.samples, 6);
  ASSERT_DOUBLE_EQ(plan.median_band, 0.005);
  // Six samples' 95% interval is their range: (55.2 - 55.0) / (2 x 55.1) = 0.18%, within 0.5%.
  const std::vector<double> steady{55.0, 55.1, 55.2, 55.0, 55.1, 55.2};
  EXPECT_TRUE(fb::samples_settled({steady}, plan));
  // Five are fewer than the plan's fewest.
  EXPECT_FALSE(fb::samples_settled({{55.0, 55.1, 55.2, 55.0, 55.1}}, plan));
  // One dip to 50 of six: (55 - 50) / (2 x 55) = 4.5%.
  const std::vector<double> dipped{55.0, 55.0, 55.0, 50.0, 55.0, 55.0};
  EXPECT_FALSE(fb::samples_settled({dipped}, plan));
  // Every lane must settle (both directions of a bidirectional copy).
  EXPECT_FALSE(fb::samples_settled({steady, dipped}, plan));
  EXPECT_FALSE(fb::samples_settled({}, plan));
}

TEST(P2pSamples, TwoDipsInEighteenNoLongerMoveTheMedian) {
  // n = 18: the interval runs from the 4th to the 15th smallest (0.98 x sqrt(18) = 4.16 either side
  // of the middle), both 55 when only two samples dipped.
  std::vector<double> v(16, 55.0);
  v.insert(v.begin() + 5, 50.0);
  v.insert(v.begin() + 11, 49.0);
  EXPECT_TRUE(fb::samples_settled({v}, default_plan()));
  // Four dips of 18: the 4th smallest is the highest dip, 50: (55 - 50) / (2 x 55) = 4.5%.
  std::vector<double> w(14, 55.0);
  w.insert(w.end(), {50.0, 49.0, 48.0, 47.0});
  EXPECT_FALSE(fb::samples_settled({w}, default_plan()));
}

TEST(P2pSamples, SamplesOnTheCommandLineIsAnExactCount) {
  CLI::App app;
  fb::P2pOptions o;
  fb::add_p2p_subcommand(app, o);
  app.parse("p2p", false);
  EXPECT_EQ(o.request.measure.samples, 6);
  EXPECT_EQ(o.request.measure.max_samples, 18);
  app.parse("p2p --samples 3", false);
  EXPECT_EQ(o.request.measure.samples, 3);
  EXPECT_EQ(o.request.measure.max_samples, 3);
}

}  // namespace
