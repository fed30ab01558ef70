// The verdict contract in the pages people read (report/verdict_blocks.hpp): summary.md and
// report.html open with the status and action, then every check's status, the same as the judged
// document's `verdict` (what `report --analyse`, the JSON and the textfile say). A page across hosts
// draws its hosts and is titled by them.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "analyse/judge.hpp"
#include "analyse/verdict/verdict_contract.hpp"
#include "golden.hpp"
#include "report/documents.hpp"
#include "report/verdict_blocks.hpp"

namespace {

fb::Result judged(const std::string& name) {
  auto r = result_fixture(name);
  fb::judge(r);
  return r;
}

}  // namespace

TEST(VerdictViews, SummaryOpensWithTheVerdictAndEveryCheck) {
  for (const std::string name :
       {"h200x2-doctor-quick.json", "synthetic-prolog-slow8.json", "synthetic-4host.json"}) {
    const auto r = judged(name);
    ASSERT_TRUE(r.verdict.has_value());
    const auto md = fb::markdown_summary(r);
    const auto head = fmt::format("# fabricbench summary\n\n**Verdict: {} (action: {})**", r.verdict->status,
                                  r.verdict->action);
    EXPECT_TRUE(md.starts_with(head)) << name << ":\n" << md.substr(0, 300);
    for (const auto& c : r.verdict->checks)
      EXPECT_NE(md.find(fmt::format("| {} | {} | {} |", c.check, c.status, c.action)), std::string::npos)
          << name << ": " << c.check;
  }
  EXPECT_TRUE(fb::markdown_summary(judged("synthetic-prolog-slow8.json"))
                  .starts_with("# fabricbench summary\n\n**Verdict: CRITICAL (action: drain)**"));
}

TEST(VerdictViews, HtmlOpensWithTheSameVerdict) {
  const auto r = judged("synthetic-prolog-slow8.json");
  const auto html = fb::html_report(r);
  const auto verdict =
      html.find("<section class=\"verdict\" data-status=\"CRITICAL\" data-action=\"drain\">");
  ASSERT_NE(verdict, std::string::npos);
  EXPECT_LT(verdict, html.find("class=\"banner"));
  for (const auto& c : r.verdict->checks)
    EXPECT_NE(html.find(fmt::format("data-check=\"{}\" data-status=\"{}\"", c.check, c.status)),
              std::string::npos)
        << c.check;
}

// The views show the judge's verdict and never make one: a document nobody judged shows no checks.
TEST(VerdictViews, AnUnjudgedDocumentShowsNoChecksOfItsOwn) {
  auto r = result_fixture("h200x2-doctor-quick.json");
  r.verdict.reset();
  EXPECT_TRUE(fb::shown_verdict(r).checks.empty());
  fb::judge(r);
  EXPECT_EQ(fb::shown_verdict(r).checks.size(), r.verdict->checks.size());
  EXPECT_FALSE(r.verdict->checks.empty());
}

TEST(VerdictViews, APageAcrossHostsDrawsItsHosts) {
  for (const std::string name : {"synthetic-2host-socket.json", "h200x1-fakehosts-torchrun-2x1.json"}) {
    const auto html = fb::html_report(judged(name));
    EXPECT_EQ(html.find("One GPU: no links between GPUs"), std::string::npos) << name;
    EXPECT_NE(html.find("<h2>The hosts</h2>"), std::string::npos) << name;
  }
  const auto two = fb::html_report(judged("synthetic-2host-socket.json"));
  EXPECT_NE(two.find("<title>fabricbench report: 2 hosts node-a,node-b</title>"), std::string::npos);
  EXPECT_NE(two.find("data-host=\"node-b\""), std::string::npos);
  const auto four = fb::html_report(judged("synthetic-4host.json"));
  EXPECT_NE(four.find("<title>fabricbench report: 4 hosts node-a,node-b,node-c,node-d</title>"),
            std::string::npos);
  EXPECT_NE(four.find("data-host=\"node-d\"><b>node-d</b>: 2 GPUs <span class=\"host-verdict\" "
                      "data-status=\"CRITICAL\">CRITICAL (action: drain)</span>"),
            std::string::npos);
}
