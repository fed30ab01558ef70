// The progress line's estimate (the sampler's cost model at the latest point's bandwidth) and
// what it says.
#include <gtest/gtest.h>

#include <string>

#include "bench/sampler.hpp"
#include "recording_sink.hpp"
#include "report/progress_line.hpp"

namespace {

constexpr std::uint64_t kGiB = 1ULL << 30;

fb::SeenSpeed seen(std::uint64_t bytes, double op_s) {
  fb::SeenSpeed s;
  s.add(bytes, op_s);
  return s;
}

TEST(ProgressLine, EstimatePricesEachPointWithTheSamplersModel) {
  const fb::Sampling s;  // time-sized: 31 ms warm-up, ~1 ms batches, 12 expected batches, 1 s budget
  const auto gib = seen(kGiB, 3e-3);
  // After 1 GiB at 3 ms per operation: 2 GiB takes 6 ms per operation (one per batch):
  // warm-up 31 ms + 12 batches x 6 ms + the one queued ahead = 0.109 s; 4 GiB: 31 ms + 13 x 12 ms.
  EXPECT_NEAR(fb::estimate_left_s(s, false, gib, {2 * kGiB}, 0), 0.109, 1e-9);
  EXPECT_NEAR(fb::estimate_left_s(s, false, gib, {2 * kGiB, 4 * kGiB}, 0.05), 0.109 + 0.187 + 0.1, 1e-9);
  // Verified points add their one checked operation each.
  EXPECT_NEAR(fb::estimate_left_s(s, true, gib, {2 * kGiB, 4 * kGiB}, 0), 0.296 + 0.018, 1e-9);
  EXPECT_EQ(fb::estimate_left_s(s, false, gib, {}, 0.05), 0.0);
  // A point's budget bounds it however slow the fabric: 4 GiB at 3 GB/s is 1.43 s per operation,
  // warm-up 2 operations, then the one batch the budget always allows (none queued ahead).
  const double op = 4.0 * kGiB / 3e9;
  EXPECT_NEAR(fb::estimate_left_s(s, false, seen(kGiB, op / 4), {4 * kGiB}, 0), 3 * op, 1e-9);
}

// After small points, the best bandwidth and the launch floor price what is left, not the latest
// point's bytes per second: an 8 B point at 6 us once priced 1 GiB at 805 s per operation.
TEST(ProgressLine, SmallPointsDoNotInflateTheLargeOnes) {
  const fb::Sampling s;
  fb::SeenSpeed sweep;
  sweep.add(8, 6e-6);
  sweep.add(kGiB, 0.5e-3);  // 2.1 TB/s
  // 1 GiB again: 0.5 ms per operation, 2 per batch, 12 batches after a 31 ms warm-up, and 100
  // single operations for the tail: 94 ms.
  EXPECT_NEAR(fb::estimate_left_s(s, false, sweep, {kGiB}, 0), fb::point_seconds(s, 0.5e-3, false), 1e-12);
  EXPECT_NEAR(fb::estimate_left_s(s, false, sweep, {kGiB}, 0), 0.031 + 13 * 1e-3 + 100 * 0.5e-3, 1e-9);
  // 16 B is launch-bound: the floor, and the many batches such points take.
  EXPECT_NEAR(fb::estimate_left_s(s, false, sweep, {16}, 0), fb::point_seconds(s, 6e-6, false, 80), 1e-12);
}

fb::Result result_with(std::uint64_t bytes, double median_us) {
  fb::Result r;
  fb::Run run;
  run.collective = "all_gather";
  fb::Point p;
  p.bytes = bytes;
  p.time_us.median = median_us;
  run.points.push_back(p);
  r.runs.push_back(run);
  return r;
}

TEST(ProgressLine, SaysDoneOfPlannedAndWhatIsLeftButNotTheLastPoint) {
  RecordingSink sink;
  fb::ProgressLine line(sink, {kGiB, 2 * kGiB, 4 * kGiB}, fb::Sampling{}, false, 0.0);
  line.point(result_with(kGiB, 3000), 0, 0);
  line.point(result_with(4 * kGiB, 12000), 0, 0);
  line.point(result_with(4 * kGiB, 12000), 0, 0);  // not said: nothing left
  ASSERT_EQ(sink.events.size(), 2U);
  const auto& first = sink.events[0];
  EXPECT_EQ(first.kind, fb::EventKind::progress);
  EXPECT_TRUE(first.text.starts_with("1 of 3 points in ")) << first.text;
  EXPECT_TRUE(first.text.ends_with("(all_gather 1 GiB done), about 1 s left")) << first.text;
  ASSERT_TRUE(first.sweep.has_value());
  EXPECT_EQ(first.sweep->done, 1);
  EXPECT_EQ(first.sweep->total, 3);
  EXPECT_EQ(first.sweep->left_s, 1.0);
  EXPECT_TRUE(sink.events[1].text.starts_with("2 of 3 points")) << sink.events[1].text;
  EXPECT_EQ(sink.events[1].sweep->done, 2);
}

}  // namespace
