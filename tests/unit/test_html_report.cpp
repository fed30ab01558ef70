// The HTML report's building blocks: axis ticks against hand-computed values, the outcome in the
// banner, the heatmap bounded for huge inputs, and the pages of the result fixtures.
#include <gtest/gtest.h>

#include <string>

#include "core/file_io.hpp"
#include "golden.hpp"
#include "model/result_json.hpp"
#include "report/html/html_banner.hpp"
#include "report/html/html_heatmap.hpp"
#include "report/html/html_report.hpp"
#include "report/svg_chart.hpp"

namespace {

std::vector<std::string> labels(const std::vector<fb::Tick>& ticks) {
  std::vector<std::string> out;
  out.reserve(ticks.size());
  for (const auto& t : ticks) out.push_back(t.label);
  return out;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
  return n;
}

TEST(HtmlTicks, ZeroToOneIsLabelledInTenthsNotRoundedToIntegers) {
  // The old axis printed "1, 1, 0, 0, 0" for this range.
  EXPECT_EQ(labels(fb::nice_ticks(0, 0.93, 5)),
            (std::vector<std::string>{"0", "0.2", "0.4", "0.6", "0.8", "1"}));
}

TEST(HtmlTicks, RoundStepsInEveryRange) {
  EXPECT_EQ(labels(fb::nice_ticks(0, 383, 5)), (std::vector<std::string>{"0", "100", "200", "300", "400"}));
  EXPECT_EQ(labels(fb::nice_ticks(0, 0.031, 5)),
            (std::vector<std::string>{"0", "0.01", "0.02", "0.03", "0.04"}));
  EXPECT_EQ(labels(fb::nice_ticks(2, 8, 6)), (std::vector<std::string>{"2", "3", "4", "5", "6", "7", "8"}));
  EXPECT_EQ(labels(fb::nice_ticks(0, 0, 5)),
            (std::vector<std::string>{"0", "0.2", "0.4", "0.6", "0.8", "1"}));
  EXPECT_EQ(labels(fb::nice_ticks(0, 2.4, 5)),
            (std::vector<std::string>{"0", "0.5", "1", "1.5", "2", "2.5"}));
}

TEST(HtmlTicks, SizesArePowersOfTwoNamedInBinaryUnits) {
  // 1 MiB .. 4 GiB: 13 powers of two, every second one labelled.
  EXPECT_EQ(labels(fb::log2_size_ticks(1 << 20, 4.0 * (1 << 30), 8)),
            (std::vector<std::string>{"1 MiB", "4 MiB", "16 MiB", "64 MiB", "256 MiB", "1 GiB", "4 GiB"}));
  EXPECT_EQ(labels(fb::log2_size_ticks(1000, 3000, 8)),
            (std::vector<std::string>{"512 B", "1 KiB", "2 KiB", "4 KiB"}));
}

TEST(HtmlBanner, OutcomeFollowsStatusThenTheWorstFinding) {
  fb::Result r;
  r.status = fb::RunStatus::complete;
  EXPECT_EQ(fb::outcome(r), "incomplete");  // no topology, no host facts: not everything judged
  r.findings.push_back({"X", fb::Severity::info, "", "", ""});
  EXPECT_EQ(fb::outcome(r), "incomplete");
  r.findings.push_back({"Y", fb::Severity::warning, "", "", ""});
  EXPECT_EQ(fb::outcome(r), "warnings");
  r.findings.push_back({"Z", fb::Severity::error, "", "", ""});
  EXPECT_EQ(fb::outcome(r), "errors");
  r.status = fb::RunStatus::failed;
  EXPECT_EQ(fb::outcome(r), "failed");
}

TEST(HtmlBanner, MachineLineNamesGpusLinksDriverAndLibrary) {
  EXPECT_EQ(fb::machine_line(result_fixture("h200x2-doctor-quick.json")),
            "2 x NVIDIA H200 · NV18 between the 1 pair · driver 13.0 · runtime 13.0 · NCCL 2.28.3 · host vm");
}

TEST(HtmlHeatmap, ACellWithItsValuePerPairUpToTheBound) {
  fb::PairMatrix m{"pairs", "t", "GB/s", {0, 1, 2}, {{0, 1, 350.4}, {1, 0, 349.6}, {2, 0, 12}}, 0, ""};
  const auto svg = fb::heatmap_html(m);
  EXPECT_EQ(count(svg, "class=\"cell\""), 9U);
  EXPECT_NE(svg.find(">350</text>"), std::string::npos);
  EXPECT_NE(svg.find(">12</text>"), std::string::npos);
}

TEST(HtmlHeatmap, SummarisedBeyondTheBound) {
  fb::PairMatrix m{"pairs", "t", "GB/s", {}, {}, 0, ""};
  for (int i = 0; i < 1000; ++i) {
    m.gpus.push_back(i);
    m.values.push_back({i, (i + 1) % 1000, 100.0 + i});
  }
  const auto html = fb::heatmap_html(m);
  EXPECT_EQ(count(html, "class=\"cell\""), 0U);
  EXPECT_NE(html.find("summarised"), std::string::npos);
  EXPECT_NE(html.find("min 100.0, median 600.0, max 1099.0"), std::string::npos);
  EXPECT_LT(html.size(), 4000U);
}

TEST(HtmlReport, OneGpuDrawsNoBusbwChart) {
  auto r = result_fixture("h200x2-run-6coll-1M-4G-procs.json");
  EXPECT_NE(fb::html_report(r).find("data-chart=\"busbw\""), std::string::npos);
  for (auto& run : r.runs) run.gpus = {0};
  const auto html = fb::html_report(r);
  EXPECT_EQ(html.find("data-chart=\"busbw\""), std::string::npos);
  EXPECT_NE(html.find("no interconnect to measure"), std::string::npos);
}

TEST(HtmlReport, EachGpuOnItsOwnWithItsExpectationsAndHealth) {
  auto r = result_fixture("h200x2-doctor-quick.json");
  fb::HostFacts facts;  // as the host stage reads them (this fixture predates the stage)
  facts.gpus.resize(2);
  for (std::size_t i = 0; i < 2; ++i) {
    facts.gpus[i].bus_id = r.topology->gpus[i].bus_id;
    facts.gpus[i].clocks_event_reasons = {i == 0 ? "0x0000000000000004" : "0x0000000000000000", "NVML", ""};
    facts.gpus[i].ecc_uncorrected_volatile = {"0", "NVML", ""};
    facts.gpus[i].sm_clock_max_mhz = {"1980", "NVML", ""};
    facts.gpus[i].sm_clock_target_mhz = {i == 0 ? "1980" : "1500", "NVML", ""};
  }
  facts.xid_count = {"0", "/dev/kmsg", ""};
  r.host.config = facts;
  const auto html = fb::html_report(r);
  EXPECT_EQ(count(html, "data-chart=\"gpu-local\""), 1u);
  // Bars for the figures with an expectation (h2d/d2h each way, host latency), per GPU.
  EXPECT_EQ(count(html, "<g class=\"bar\" data-figure="), 6u);
  EXPECT_NE(html.find("data-figure=\"h2d GPU1\" data-measured=\"55.4\" data-expected=\"55.5\""),
            std::string::npos);
  EXPECT_NE(html.find("<td>h2d_all GPU0</td><td>55.2 GB/s</td><td title=\"\">-</td><td>no expectation</td>"),
            std::string::npos);                                             // no expectation: shown, and said
  EXPECT_NE(html.find("<table class=\"gpu-health\">"), std::string::npos);  // the host stage's facts
  EXPECT_NE(html.find("<td>SW power cap</td>"), std::string::npos);
  EXPECT_NE(html.find("<td>nothing</td>"), std::string::npos);
  EXPECT_NE(html.find("<td>1500 of 1980 MHz</td>"), std::string::npos);  // an applications clock set low
  EXPECT_NE(html.find("Xid lines in the kernel log: 0."), std::string::npos);
  EXPECT_EQ(html.find("one-gpu-next"), std::string::npos);  // two GPUs: no one-GPU advice
  const auto one = fb::html_report(result_fixture("synthetic-1gpu.json"));
  EXPECT_NE(one.find("One GPU: no links between GPUs to draw"), std::string::npos);
  EXPECT_NE(one.find("one-gpu-next"), std::string::npos);
  EXPECT_EQ(one.find("No GPU fabric"), std::string::npos);
}

TEST(HtmlReport, SelfContainedNoScriptNoNetwork) {
  const auto html = fb::html_report(result_fixture("h200x2-combined.json"));
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("http://"), html.find("http://www.w3.org/2000/svg"));
  EXPECT_EQ(html.find("https://"), std::string::npos);
}

}  // namespace
