// RESULT_TAIL (analyse/run/run_health.cpp): single operations' p99 against their p50, planted in the real
// 2 x H200 doctor document (tests/fixtures/results/h200x2-doctor-quick.json).
#include <gtest/gtest.h>

#include "bench/iteration_times.hpp"
#include "planted.hpp"

namespace {

// 100 operations around `p50` us, the slowest `slow` of them at `factor` x p50.
fb::IterationTimes tail(double p50, int slow, double factor) {
  std::vector<double> v(100, p50);
  for (int i = 0; i < 100; ++i) v[static_cast<std::size_t>(i)] += 0.001 * p50 * (i % 7);
  for (int i = 0; i < slow; ++i) v[static_cast<std::size_t>(10 * i + 3)] = factor * p50;
  return fb::summarize_iterations("events", v);
}

fb::Result doctor_with(std::size_t point, fb::IterationTimes it) {
  auto r = planted::with_noise(planted::load("h200x2-doctor-quick"));
  planted::run_of(r, "all_reduce").points[point].iterations = std::move(it);
  return r;
}

std::vector<const fb::Finding*> tails(const fb::Result& r) {
  return planted::with_code(fb::analyse_result(r), "RESULT_TAIL");
}

TEST(TailFindings, StragglerAtALargeSizeIsAWarningWithItsFigures) {
  // 256 MiB (830 us per operation): 2 in 100 operations at 2x, so p99 (the 99th) is 1660 us.
  const auto r = doctor_with(2, tail(830, 2, 2.0));
  const auto found = tails(r);
  ASSERT_EQ(found.size(), 1U);
  EXPECT_EQ(found[0]->severity, fb::Severity::warning);
  EXPECT_NE(found[0]->evidence.find("268435456 B: 2 of 100 operations at 1.5x p50 832.5 us or more (p99 "
                                    "1660.0 us, max 1660.0 us)"),
            std::string::npos)
      << found[0]->evidence;
}

TEST(TailFindings, OneSlowOperationIsNotATail) {
  // One 3x outlier in 100 (the max, not the p99); two at 1.45x, under the 1.5x line.
  EXPECT_TRUE(tails(doctor_with(2, tail(830, 1, 3.0))).empty());
  EXPECT_TRUE(tails(doctor_with(3, tail(3237, 2, 1.45))).empty());  // 1 GiB, under 1.5x
}

TEST(TailFindings, LaunchBoundSizesSayItAsInfoOnlyPastFiveTimes) {
  EXPECT_TRUE(tails(doctor_with(0, tail(25, 5, 4.0))).empty());  // 1 MiB, 4x: a host's hiccups
  const auto found = tails(doctor_with(0, tail(25, 5, 6.0)));
  ASSERT_EQ(found.size(), 1U);
  EXPECT_EQ(found[0]->severity, fb::Severity::info);
  EXPECT_NE(found[0]->evidence.find("1048576 B: 5 of 100 operations at 5.0x p50 25.1 us or more"),
            std::string::npos)
      << found[0]->evidence;
}

TEST(TailFindings, AHandfulOfBatchesIsLeftToTheJitterRule) {
  // 1 GiB timed in 6 one-operation batches, one at 2x: an outlier, not a tail.
  const auto r = doctor_with(3, fb::summarize_iterations("batches", {3237, 3240, 3236, 6474, 3238, 3239}));
  EXPECT_TRUE(tails(r).empty());
}

TEST(TailFindings, ANoisyNeighbourOnOneH200) {
  // Real: 1 GiB all_reduce on one H200 while another job ran its own on the same GPU
  // (scripts/tail-check.sh, 2026-12-02): 16 one-operation batches, 3 of them a time slice later.
  const auto r = doctor_with(
      3, fb::summarize_iterations("batches", {508.7, 506.0, 505.0, 506.2, 3015.9, 506.5, 505.4, 506.5, 3006.0,
                                              505.7, 505.2, 506.1, 3018.0, 506.1, 505.2, 505.9}));
  const auto found = tails(r);
  ASSERT_EQ(found.size(), 1U);
  EXPECT_EQ(found[0]->severity, fb::Severity::warning);
  EXPECT_NE(
      found[0]->evidence.find("1073741824 B: 3 of 16 operations at 1.5x p50 506.1 us or more (p99 3018.0 "
                              "us, max 3018.0 us)"),
      std::string::npos)
      << found[0]->evidence;
}

TEST(TailFindings, DocumentsWithoutIterationsAreNotJudged) {
  EXPECT_TRUE(tails(planted::with_noise(planted::load("h200x2-doctor-quick"))).empty());
}

}  // namespace
