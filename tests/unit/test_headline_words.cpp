// Issue 43: one truth in the headline (its figure and words are the headline table's; a percent of the
// ring's ceiling is never "of expected"; a result with no expectation says so) and a sentence with its
// figure for every check, passed or not. Golden summaries of the four cases the issue names.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "analyse/judge.hpp"
#include "analyse/verdict/headline_figures.hpp"
#include "analyse/verdict/headline_words.hpp"
#include "analyse/verdict/outcome.hpp"
#include "golden.hpp"
#include "report/documents.hpp"
#include "report/html/html_report.hpp"
#include "report/judgement.hpp"
#include "report/svg_chart.hpp"

namespace {

fb::Result judged(const std::string& name) {
  auto r = result_fixture(name);
  fb::judge(r);
  return r;
}

const fb::CheckVerdict& check(const fb::Result& r, const std::string& name) {
  for (const auto& c : r.verdict->checks)
    if (c.check == name) return c;
  throw std::runtime_error("no check " + name);
}

const fb::Finding* finding(const fb::Result& r, const std::string& code) {
  for (const auto& f : r.findings)
    if (f.code == code) return &f;
  return nullptr;
}

// The page's banner says what the summary says.
void expect_same_banner(const fb::Result& r) {
  const auto words = fb::headline_outcome(r).words;
  EXPECT_NE(fb::markdown_summary(r).find("**" + words + "**"), std::string::npos) << words;
  EXPECT_NE(fb::html_report(r).find("<h1>" + fb::escape_html(words) + "</h1>"), std::string::npos) << words;
}

}  // namespace

// A GPU model the table has no row for (H20): its collectives are held against the bound its hardware
// gives (the topology's NVLink), and the headline says so in the table's figures, never "expected".
TEST(Headline, AModelWithoutARowIsNeverExpected) {
  const auto r = judged("synthetic-norow-2gpu.json");
  EXPECT_FALSE(finding(r, "NO_EXPECTATION"));
  const auto words = fb::headline_outcome(r).words;
  EXPECT_EQ(words.find("expected"), std::string::npos) << words;
  EXPECT_NE(words.find("(no published row: what a healthy run of its hardware reaches there"),
            std::string::npos)
      << words;
  // The figure named is a row of the table, with the same percent of the bound.
  const auto worst = fb::worst_shortfall(r);
  ASSERT_TRUE(worst);
  EXPECT_EQ(worst->figure.expected, 0);
  EXPECT_GT(worst->figure.reach, 0);
  const auto md = fb::markdown_summary(r);
  EXPECT_NE(md.find(fmt::format("| {} | {:.1f} GB/s | - | {:.0f}% of the bound (no published row",
                                worst->figure.figure, worst->figure.measured,
                                worst->figure.measured / worst->figure.reach * 100)),
            std::string::npos)
      << md;
  EXPECT_NE(words.find(fmt::format("{:.0f}% of the bound {:.1f} GB/s",
                                   worst->figure.measured / worst->figure.reach * 100, worst->figure.reach)),
            std::string::npos)
      << words;
  expect_same_banner(r);
  expect_golden("summary_norow_2gpu.md", md);
}

// Four hosts of H200 over TCP sockets and no cross-host row: NO_EXPECTATION says sockets have no rate,
// and the figure (2.4 GB/s) far below the slowest datacenter network of the class names the sockets as
// the fault; the headline never says the figures meet their expectations.
TEST(Headline, NoExpectationAcrossHostsIsSaid) {
  const auto r = judged("synthetic-4host-noexp.json");
  ASSERT_TRUE(finding(r, "NO_EXPECTATION"));
  ASSERT_TRUE(finding(r, "SIGNATURE_SOCKETS"));
  const auto words = fb::headline_outcome(r).words;
  EXPECT_EQ(words, "Errors (SIGNATURE_SOCKETS): not fit for use as measured");
  EXPECT_EQ(fb::markdown_summary(r).find("meet their expectations"), std::string::npos);
  expect_same_banner(r);
  expect_golden("summary_4host_noexp.md", fb::markdown_summary(r));
}

TEST(Headline, TheStandingOfTheFiguresFollowsWhatTheyAreHeldAgainst) {
  fb::HeadlineFigure row;
  row.figure = "h2d GPU0";
  row.measured = 55.4;
  row.expected = 55.5;
  fb::HeadlineFigure reach;
  reach.figure = "all_reduce busbw at 1 GiB";
  reach.measured = 331;
  reach.reach = 332;
  reach.ring_ceiling = 373.5;
  fb::HeadlineFigure none;
  none.figure = "h2d_all GPU0";
  none.measured = 50;
  EXPECT_EQ(fb::expectations_standing({row}), "the figures meet their expectations");
  EXPECT_EQ(fb::expectations_standing({row, none}), "the 1 figure with an expectation meets it; 1 has none");
  EXPECT_EQ(fb::expectations_standing({reach, none}),
            "no published row for this machine; the collectives reach the bound their hardware gives");
  EXPECT_EQ(fb::expectations_standing({none}), "no expectation for this machine");
  EXPECT_EQ(fb::expectations_standing({}), "no expectation for this machine");
  // 331 / 332 = 99.7%; 332 / 373.5 = 88.9%.
  EXPECT_EQ(
      fb::figure_sentence(reach),
      "all_reduce busbw at 1 GiB: 331.0 GB/s, 100% of the bound 332.0 GB/s (no published row: what a healthy "
      "run of its hardware reaches there, 89% of the ring's ceiling 373.5 GB/s)");
  EXPECT_EQ(fb::figure_sentence(row), "h2d GPU0: 55.4 GB/s, 100% of expected 55.5 GB/s");
  EXPECT_EQ(fb::figure_sentence(none), "h2d_all GPU0: 50.0 GB/s, no expectation for this machine");
}

// A pair under one PCIe switch at its nominal rate and nothing else to say: the pairs check passes with
// its figure, in the verdict, the summary and the page.
TEST(CheckSentences, ANominalPciePairSaysItsFigure) {
  const auto r = judged("synthetic-pcie-nominal.json");
  const auto& pairs = check(r, "pairs");
  EXPECT_EQ(pairs.status, fb::CheckStatus::pass);
  // 54.9 / 55.45 = 99.0%
  EXPECT_EQ(
      pairs.evidence,
      "nominal: ce_read GPU0 -> GPU1 54.9 GB/s of the 55.5 GB/s path ceiling (99%), the lowest of 2 figures");
  for (const auto& c : r.verdict->checks) EXPECT_FALSE(c.evidence.empty()) << c.check;
  const auto md = fb::markdown_summary(r);
  // Every view lists every check with its sentence: the verdict block first (report/verdict_blocks).
  EXPECT_NE(md.find("| pairs | PASS | none | nominal: ce_read GPU0 -> GPU1 54.9 GB/s"), std::string::npos);
  EXPECT_NE(fb::html_report(r).find(
                "data-check=\"pairs\" data-status=\"PASS\"><td>pairs</td><td>PASS</td><td>none</td>"
                "<td class=\"evidence\">nominal: ce_read GPU0 -&gt; GPU1 54.9 GB/s"),
            std::string::npos);
  expect_golden("summary_pcie_nominal.md", md);
}

// SHM between GPUs that cannot reach each other peer to peer across CPU sockets is NCCL's normal path
// there: said as expected for the topology (info), not as a fault to fix.
TEST(CheckSentences, ACrossSocketShmFallbackIsExplainedAsExpected) {
  const auto r = judged("synthetic-cross-socket-shm.json");
  const auto* f = finding(r, "NCCL_FALLBACK");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, fb::Severity::info);
  EXPECT_EQ(
      f->evidence,
      "all_reduce: NCCL uses SHM/direct/direct between the GPUs that cannot reach each other peer to peer "
      "across CPU sockets: GPU0-GPU4 (SYS), GPU1-GPU4 (SYS); expected for this topology (pairs with peer "
      "access: GPU0-GPU1 (PIX))");
  EXPECT_EQ(f->hint.rfind("nothing to fix", 0), 0U);
  EXPECT_EQ(check(r, "transports").status, fb::CheckStatus::info);
  expect_golden("summary_cross_socket_shm.md", fb::markdown_summary(r));
}
