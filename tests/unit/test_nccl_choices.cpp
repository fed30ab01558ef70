// NCCL's choice at each size (algorithm, protocol, channels: the document's points' `nccl`) in every
// view: a column of the console and CSV point tables, a table of the Markdown summary and of the HTML
// report. Regenerate the goldens with FB_UPDATE_GOLDEN=1 ./unit_tests --gtest_filter='NcclChoices.*'.
#include <gtest/gtest.h>

#include <sstream>

#include "golden.hpp"
#include "ingest/import_file.hpp"
#include "report/console_reporter.hpp"
#include "report/csv_reporter.hpp"
#include "report/documents.hpp"
#include "report/nccl_choices.hpp"
#include "sample_result.hpp"

namespace {

// The sample run with NCCL's choice at its 1 GiB point only (the 1 MiB one is not in the log).
fb::Result with_choice() {
  auto r = sample_result();
  auto& big = r.runs[0].points[1];
  big.nccl_algo = "RING";
  big.nccl_proto = "SIMPLE";
  big.nccl_channels = 16;
  r.runs[0].points[1].in_place =
      false;  // the table lists out-of-place points (in-place ones share the choice)
  return r;
}

void print_all(fb::Reporter& rep, const fb::Result& r) {
  rep.begin(r);
  for (std::size_t p = 0; p < r.runs[0].points.size(); ++p) rep.point(r, 0, p);
  rep.end(r);
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST(NcclChoices, TextOfAPoint) {
  const auto r = with_choice();
  EXPECT_EQ(fb::nccl_choice_text(r.runs[0].points[1]), "RING/SIMPLE x16");
  EXPECT_EQ(fb::nccl_choice_text(r.runs[0].points[0]), "");
  auto p = r.runs[0].points[1];
  p.nccl_channels = 0;  // before NCCL 2.24 the log names no channel count
  EXPECT_EQ(fb::nccl_choice_text(p), "RING/SIMPLE");
  EXPECT_TRUE(fb::has_nccl_choice(r.runs[0]));
  EXPECT_FALSE(fb::has_nccl_choice(sample_result().runs[0]));
}

TEST(NcclChoices, ConsoleColumn) {
  std::ostringstream out;
  fb::ConsoleReporter rep(out);
  print_all(rep, with_choice());
  expect_golden("console_nccl_choices.txt", out.str());
}

TEST(NcclChoices, ConsoleWithoutChoicesHasNoColumn) {
  std::ostringstream out;
  fb::ConsoleReporter rep(out);
  print_all(rep, sample_result());
  EXPECT_FALSE(contains(out.str(), "nccl("));
}

TEST(NcclChoices, CsvColumns) {
  std::ostringstream out;
  fb::CsvReporter rep(out);
  print_all(rep, with_choice());
  expect_golden("run_nccl_choices.csv", out.str());
}

TEST(NcclChoices, MarkdownAndHtmlTables) {
  const auto r = with_choice();
  expect_golden("nccl_choices.md", fb::nccl_choices_markdown(r));
  EXPECT_TRUE(contains(fb::markdown_summary(r), "## NCCL's choice at each size"));
  const auto html = fb::html_report(r);
  EXPECT_TRUE(
      contains(html, "<td>all_reduce</td><td>2</td><td>1 GiB</td><td>RING</td><td>SIMPLE</td><td>16</td>"));
  EXPECT_FALSE(contains(fb::markdown_summary(sample_result()), "NCCL's choice at each size"));
  EXPECT_FALSE(contains(fb::html_report(sample_result()), "class=\"choices\""));
}

// An nccl-tests output with NCCL's INFO/TUNING lines inside its table: the choice read per size shows
// in the summary (2 x H200, NCCL 2.28.3: RING/SIMPLE at 1 GiB).
TEST(NcclChoices, ImportedLogShowsInTheSummary) {
  const auto r = fb::load_result_or_output(
      std::string(FB_FIXTURE_DIR) + "/nccl/nccl-2.28.3-all_reduce-1GiB-2xH200-INFO-INIT-GRAPH-TUNING.log",
      {});
  ASSERT_EQ(r.runs.size(), 1U);
  EXPECT_TRUE(fb::has_nccl_choice(r.runs[0]));
  EXPECT_TRUE(contains(fb::markdown_summary(r), "| all_reduce | 2 | 1 GiB | RING | SIMPLE |"));
}
