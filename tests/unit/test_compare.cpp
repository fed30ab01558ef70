// compare: identical runs pass, a 10% drop at large sizes fails, noise-level differences pass,
// malformed or unrelated files are usage errors.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "analyse/run/compare.hpp"
#include "core/error.hpp"
#include "model/result_json.hpp"
#include "sample_result.hpp"

namespace {

fb::Result scaled(double factor, double ci = 0.004) {
  auto r = sample_result();
  for (auto& run : r.runs)
    for (auto& p : run.points) {
      p.busbw_gbps *= factor;
      p.time_us.median_ci = ci;
    }
  for (auto& m : r.p2p) m.value *= factor;
  return r;
}

}  // namespace

TEST(Compare, IdenticalRunsPass) {
  const auto rep = fb::compare_results(sample_result(), sample_result(), 0.05, 64 << 20);
  EXPECT_FALSE(rep.regression());
  ASSERT_EQ(rep.rows.size(), 3u);  // two collective points and one p2p figure
  for (const auto& row : rep.rows) EXPECT_EQ(row.verdict, "same") << row.key;
}

TEST(Compare, TenPercentDropAtLargeSizesFails) {
  const auto rep = fb::compare_results(scaled(1.0), scaled(0.9), 0.05, 64 << 20);
  EXPECT_TRUE(rep.regression());
  for (const auto& row : rep.rows) {
    if (row.bytes >= (64u << 20))
      EXPECT_EQ(row.verdict, "REGRESSION") << row.key;
    else
      EXPECT_EQ(row.verdict, "worse") << row.key;  // 1 MiB: worse, but below --min-size
    EXPECT_NEAR(row.change, -0.1, 1e-9);
  }
}

TEST(Compare, NoiseLevelDifferencesPass) {
  // -1% with +-0.4% intervals on each side (0.8% together): beyond noise, but far from a 5% drop.
  auto rep = fb::compare_results(scaled(1.0), scaled(0.99), 0.05, 64 << 20);
  EXPECT_FALSE(rep.regression());
  // -3% on noisy points (+-2% each): within the noise, so "same".
  rep = fb::compare_results(scaled(1.0, 0.02), scaled(0.97, 0.02), 0.05, 64 << 20);
  for (const auto& row : rep.rows)
    if (row.key.rfind("collective", 0) == 0) EXPECT_EQ(row.verdict, "same") << row.key;
  // Faster is never a regression.
  EXPECT_FALSE(fb::compare_results(scaled(1.0), scaled(1.2), 0.05, 0).regression());
}

TEST(Compare, TheSameRunUnderAnotherLauncherIsCompared) {
  auto torchrun = sample_result();
  for (auto& run : torchrun.runs) run.launcher = "torchrun";
  const auto rep = fb::compare_results(sample_result(), torchrun, 0.05, 64 << 20);
  EXPECT_EQ(rep.rows.size(), 3u);
  for (const auto& row : rep.rows) EXPECT_EQ(row.verdict, "same") << row.key;
}

// Zero-filled buffers read less than the pattern at large sizes: not the same measurement.
TEST(Compare, AZeroFilledRunIsNotComparedWithThePattern) {
  auto zeros = scaled(1.0);
  for (auto& run : zeros.runs) {
    run.fill = "zeros";
    for (auto& p : run.points) p.busbw_gbps *= 0.96;
  }
  const auto rep = fb::compare_results(scaled(1.0), zeros, 0.01, 0);
  EXPECT_FALSE(rep.regression());
  ASSERT_EQ(rep.rows.size(), 1u);  // the p2p figure only
  EXPECT_EQ(rep.rows[0].key.rfind("p2p", 0), 0u);
  EXPECT_EQ(rep.only_in_base, 2);
  EXPECT_EQ(rep.only_in_next, 2);
  EXPECT_EQ(fb::compare_results(zeros, zeros, 0.01, 0).rows.size(), 3u);  // zeros against zeros: compared
}

TEST(Compare, UnrelatedResultsAreAUsageError) {
  auto other = sample_result();
  other.runs[0].collective = "all_gather";
  other.p2p.clear();
  try {
    fb::compare_results(sample_result(), other, 0.05, 0);
    FAIL();
  } catch (const fb::Error& e) {
    EXPECT_EQ(e.code(), fb::ExitCode::usage);
    EXPECT_NE(std::string(e.what()).find("share no measurement"), std::string::npos);
  }
}

TEST(Compare, MarkdownTableForCiSummaries) {
  const auto rep = fb::compare_results(scaled(1.0), scaled(0.9), 0.05, 64 << 20);
  const auto md = fb::compare_table(rep, true);
  EXPECT_NE(md.find("| measurement | base | new | change | noise | verdict |"), std::string::npos);
  EXPECT_NE(md.find("| -10.0% |"), std::string::npos) << md;
  EXPECT_NE(md.find("REGRESSION"), std::string::npos);
}
