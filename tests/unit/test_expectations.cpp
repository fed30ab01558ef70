// Expectations by what ran (issue 32): the row is picked by GPU model, GPU count, hosts,
// collective, size and NCCL's algorithm. The NCCL lines below are SYNTHESISED in NCCL 2.24+'s
// TUNING form (comm/nccl_log.cpp reads them; the logs of real 8-GPU NVLS machines are not in
// tests/fixtures), and the documents are built here, not measured.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>

#include "analyse/expect/expectations.hpp"
#include "analyse/judge.hpp"
#include "analyse/scope/gpu_model.hpp"
#include "analyse/verdict/headline_figures.hpp"
#include "cluster_fixtures.hpp"
#include "comm/nccl_log.hpp"
#include "core/file_io.hpp"
#include "report/expectations_table.hpp"

namespace {

constexpr std::uint64_t kGi = 1ULL << 30;

// A document of `n` GPUs named `name` (spread over `hosts` hosts) with one all_reduce point at
// 4 GiB; its NCCL choice from a synthesised TUNING line when `algo` is given.
fb::Result all_reduce(const std::string& name, int n, double busbw, const std::string& algo = "",
                      int hosts = 1) {
  fb::Result r;
  r.status = fb::RunStatus::complete;
  fb::Run run;
  run.collective = "all_reduce";
  for (int i = 0; i < n; ++i) {
    r.gpus.push_back({i % (n / hosts), i, name, "", 0, 90, "node" + std::to_string(i / (n / hosts))});
    run.gpus.push_back(i);
  }
  fb::Point p;
  p.bytes = 4 * kGi;
  p.busbw_gbps = busbw;
  p.time_us.median_ci = 0.005;
  if (!algo.empty()) {
    const auto log = fb::parse_nccl_log("node0:1:2 [0] NCCL INFO AllReduce: 4294967296 Bytes -> Algo " +
                                        algo + " proto SIMPLE channel{Lo..Hi}={0..15}\n");
    const auto& choice = log.choices.at("AllReduce").at(4 * kGi);
    p.nccl_algo = choice.algo;
    p.nccl_proto = choice.proto;
    p.nccl_channels = choice.channels.value_or(0);
  }
  run.points.push_back(p);
  r.runs.push_back(run);
  return r;
}

std::vector<fb::Finding> with(const std::vector<fb::Finding>& f, const std::string& code) {
  std::vector<fb::Finding> out;
  std::copy_if(f.begin(), f.end(), std::back_inserter(out),
               [&](const fb::Finding& x) { return x.code == code; });
  return out;
}

const fb::CheckVerdict& check(const fb::Verdict& v, const std::string& name) {
  const auto it =
      std::find_if(v.checks.begin(), v.checks.end(), [&](const auto& c) { return c.check == name; });
  if (it == v.checks.end()) throw std::runtime_error("no check " + name);
  return *it;
}

}  // namespace

TEST(GpuModel, ExactModelKeysNotSubstrings) {
  EXPECT_EQ(fb::gpu_model_key("NVIDIA H200"), "H200");
  EXPECT_EQ(fb::gpu_model_key("NVIDIA GH200 144G HBM3e"), "GH200");
  EXPECT_EQ(fb::gpu_model_key("NVIDIA H100 80GB HBM3"), "H100");
  EXPECT_EQ(fb::gpu_model_key("NVIDIA H100 PCIe"), "H100 PCIe");
  EXPECT_EQ(fb::gpu_model_key("NVIDIA H200 NVL"), "H200 NVL");
  EXPECT_EQ(fb::gpu_model_key("NVIDIA A100-SXM4-80GB"), "A100");
  EXPECT_EQ(fb::gpu_model_key("NVIDIA A100-PCIE-40GB"), "A100 PCIe");
  EXPECT_EQ(fb::gpu_model_key("AMD Instinct MI300X"), "MI300X");
  EXPECT_EQ(fb::gpu_model_key("AMD Instinct MI250X/MI250"), "MI250X");
  EXPECT_EQ(fb::gpu_model_key("NVIDIA B300 SXM6 AC"), "B300");
  EXPECT_EQ(fb::gpu_model_key(""), "");
}

// Acceptance (issue 32): an 8-GPU NVLS run at 372 GB/s warns against the NVLS row.
TEST(ExpectationsByWhatRan, NvlsAt372WarnsAgainstTheNvlsRow) {
  auto r = all_reduce("NVIDIA H200", 8, 372, "NVLS");
  fb::judge(r);
  const auto below = with(r.findings, "BUSBW_BELOW_EXPECTED");
  ASSERT_EQ(below.size(), 1U);
  EXPECT_EQ(below[0].severity, fb::Severity::warning);
  EXPECT_NE(
      below[0].evidence.find("all_reduce 4294967296 B on 8 x NVIDIA H200 over NVLS: busbw 372.0 GB/s is 78% "
                             "of the expected 478.0 GB/s (https://github.com/NVIDIA/nccl/issues/2140"),
      std::string::npos)
      << below[0].evidence;
  EXPECT_EQ(check(*r.verdict, "collectives_expected").status, fb::CheckStatus::warning);
  EXPECT_EQ(r.verdict->status, fb::CheckStatus::warning);
  EXPECT_EQ(r.verdict->action, fb::CheckAction::investigate);
}

// ... and the same at 478 passes.
TEST(ExpectationsByWhatRan, NvlsAt478Passes) {
  auto r = all_reduce("NVIDIA H200", 8, 478, "NVLS");
  fb::judge(r);
  EXPECT_TRUE(with(r.findings, "BUSBW_BELOW_EXPECTED").empty());
  EXPECT_TRUE(with(r.findings, "NVLS_OFF").empty());
  EXPECT_EQ(check(*r.verdict, "collectives_expected").status, fb::CheckStatus::pass);
}

// Where NCCL's log was not read, NCCL's default on the machine (NVLS) is assumed, and said.
TEST(ExpectationsByWhatRan, UnreadLogAssumesNcclsDefault) {
  auto r = all_reduce("NVIDIA H100 80GB HBM3", 8, 372);
  const auto below = with(fb::analyse_result(r), "BUSBW_BELOW_EXPECTED");
  ASSERT_EQ(below.size(), 1U);
  EXPECT_NE(
      below[0].evidence.find("over NVLS (assumed: NCCL's default on NVSwitch machines, its log not read)"),
      std::string::npos)
      << below[0].evidence;
}

// The same 372 GB/s with NVLS off passes against the ring row, with the info that says so.
TEST(ExpectationsByWhatRan, NvlsOffPassesAgainstTheRingRowWithTheInfo) {
  auto r = all_reduce("NVIDIA H200", 8, 372, "RING");
  r.env["NCCL_NVLS_ENABLE"] = "0";
  fb::judge(r);
  EXPECT_TRUE(with(r.findings, "BUSBW_BELOW_EXPECTED").empty());
  const auto off = with(r.findings, "NVLS_OFF");
  ASSERT_EQ(off.size(), 1U);
  EXPECT_EQ(off[0].severity, fb::Severity::info);
  EXPECT_NE(
      off[0].evidence.find("NVLS (NVLink SHARP) off (NCCL_NVLS_ENABLE=0 in the environment): judged against "
                           "the ring row, 360.0 GB/s"),
      std::string::npos)
      << off[0].evidence;
  EXPECT_EQ(check(*r.verdict, "collectives_expected").status, fb::CheckStatus::info);

  auto no_multicast = all_reduce("NVIDIA H200", 8, 372);  // NCCL's log found no multicast support
  no_multicast.runs[0].nccl_nvls_available = false;
  const auto f = fb::analyse_result(no_multicast);
  EXPECT_TRUE(with(f, "BUSBW_BELOW_EXPECTED").empty());
  ASSERT_EQ(with(f, "NVLS_OFF").size(), 1U);
  EXPECT_NE(with(f, "NVLS_OFF")[0].evidence.find("no NVLink SHARP multicast support"), std::string::npos);
}

// 4 hosts with NVLSTree above the NIC sum (no published NVLSTree figure there): labelled, not praised,
// not judged; the hosts' NICs are the ib8 fixture's (8 x 400G).
TEST(ExpectationsByWhatRan, NvlsTreeAboveTheNicSumIsLabelled) {
  ClusterSpec spec{trees(4, "ib8")};
  spec.algo = "NVLSTree";
  spec.busbw = 480;
  auto r = cluster_result(spec);
  fb::judge(r);
  const auto label = with(r.findings, "BUSBW_ABOVE_NIC_SUM");
  ASSERT_EQ(label.size(), 1U);
  EXPECT_EQ(label[0].severity, fb::Severity::info);
  EXPECT_NE(label[0].evidence.find(
                "across 4 hosts over NVLSTree: busbw 480.0 GB/s is above the NIC sum 384.0 GB/s"),
            std::string::npos)
      << label[0].evidence;
  EXPECT_TRUE(with(r.findings, "BUSBW_BELOW_EXPECTED").empty());
  EXPECT_TRUE(with(r.findings, "NO_EXPECTATION").empty());
  const auto h = fb::headline_figures(r);
  ASSERT_EQ(h.size(), 1U);
  EXPECT_EQ(h[0].percent_text(), "above the NIC sum 384 GB/s: NVLSTree busbw, not comparable");
  // A ring across the same hosts is judged against the NIC sum itself.
  spec.algo = "RING";
  spec.busbw = 300;
  EXPECT_EQ(with(fb::analyse_result(cluster_result(spec)), "BUSBW_BELOW_EXPECTED").size(), 1U);
}

// A GPU with no row gets "no expectation", never a borrowed one.
TEST(ExpectationsByWhatRan, GpuWithoutARowHasNoExpectation) {
  EXPECT_FALSE(fb::expected_for("NVIDIA GH200 144G HBM3e", 2, "all_reduce", kGi));
  EXPECT_FALSE(fb::expected_for("NVIDIA GH200 144G HBM3e", 0, "pair", 0));
  EXPECT_TRUE(fb::expected_for("NVIDIA H200", 2, "all_reduce", kGi));
  auto r = all_reduce("NVIDIA GH200 144G HBM3e", 8, 372, "NVLS");
  fb::judge(r);
  const auto none = with(r.findings, "NO_EXPECTATION");
  ASSERT_EQ(none.size(), 1U);
  EXPECT_NE(none[0].evidence.find("no expected figure and no bound on NVIDIA GH200 144G HBM3e (model GH200): "
                                  "all_reduce: neither the document's topology nor the GPU table"),
            std::string::npos)
      << none[0].evidence;
  EXPECT_TRUE(with(r.findings, "BUSBW_BELOW_EXPECTED").empty());
  EXPECT_EQ(check(*r.verdict, "collectives_expected").status, fb::CheckStatus::unknown);
  // An algorithm the table has no row for is not judged against another algorithm's row: against the bound
  // its hardware gives (18 x NVLink4 through NVSwitch: 373.5 x 331 / 373.5 at 4 GiB on 8 GPUs, less 10%).
  auto tree = all_reduce("NVIDIA H200", 8, 100, "TREE");
  const auto found = fb::analyse_result(tree);
  EXPECT_TRUE(with(found, "NO_EXPECTATION").empty());
  EXPECT_TRUE(with(found, "BUSBW_BELOW_EXPECTED").empty());
  EXPECT_EQ(with(found, "BUSBW_BELOW_CEILING").size(), 1U);
}

TEST(ExpectationRows, EveryRowHasItsSourceAndDate) {
  const std::regex date(R"(20[0-9]{2}-[01][0-9]-[0-3][0-9])");
  for (const auto& e : fb::builtin_expectations()) {
    const std::string what = e.gpu + " " + e.figure;
    EXPECT_FALSE(e.source.empty()) << what;
    EXPECT_TRUE(std::regex_match(e.date, date)) << what << ": " << e.date;
    EXPECT_EQ(e.gpu, fb::gpu_model_key(e.gpu)) << "a row's gpu is a model key: " << what;
    EXPECT_GT(e.value, 0) << what;
    EXPECT_LE(e.min_bytes, e.max_bytes) << what;
  }
}

TEST(ExpectationRows, TodaysMachinesHaveRows) {
  const auto at = [](const std::string& gpu, int n, int hosts, std::uint64_t bytes, const std::string& algo) {
    return fb::expected_for(fb::Result{}, {gpu, n, hosts, "all_reduce", bytes, algo});
  };
  EXPECT_DOUBLE_EQ(at("NVIDIA B300 SXM6 AC", 8, 1, 4 * kGi, "NVLS")->value, 845);
  EXPECT_DOUBLE_EQ(at("NVIDIA B300 SXM6 AC", 8, 1, 4 * kGi, "RING")->value, 695);
  EXPECT_TRUE(at("NVIDIA B300 SXM6 AC", 8, 1, 4 * kGi, "NVLS")->row.single_report);
  EXPECT_DOUBLE_EQ(at("NVIDIA B200", 8, 1, 4 * kGi, "NVLS")->value, 830);
  // One GB200 NVL72 rack is one host as NCCL counts nodes (one NVLink domain over its 18 trays).
  EXPECT_DOUBLE_EQ(at("NVIDIA GB200", 72, 1, 8 * kGi, "NVLS")->value, 835);
  EXPECT_FALSE(at("NVIDIA GB200", 72, 18, 8 * kGi, "NVLS"));
  EXPECT_DOUBLE_EQ(at("AMD Instinct MI325X", 8, 1, 8 * kGi, "RING")->value, 304);
  EXPECT_EQ(at("AMD Instinct MI355X", 8, 1, 8 * kGi, "")->row.kind, fb::ExpectationKind::acceptance);
  // Across hosts no row: the figure comes from the hosts' NICs (tests/unit/test_nic_expectations.cpp).
  EXPECT_FALSE(at("NVIDIA H200", 16, 2, 4 * kGi, "RING"));
  EXPECT_FALSE(at("NVIDIA H200", 16, 2, 4 * kGi, "NVLSTree"));
}

// docs/verdicts.md's table is the code's rows, printed (`fabricbench expectations --markdown`).
TEST(ExpectationsDoc, MatchesTheCode) {
  const std::string doc = fb::read_file(std::string(FB_FIXTURE_DIR) + "/../../docs/verdicts.md");
  const auto begin = doc.find(fb::kTableBegin);
  const auto end = doc.find(fb::kTableEnd);
  ASSERT_NE(begin, std::string::npos) << "docs/verdicts.md lost its table's first marker";
  ASSERT_NE(end, std::string::npos) << "docs/verdicts.md lost its table's last marker";
  const auto first = begin + std::string(fb::kTableBegin).size() + 1;
  EXPECT_EQ(doc.substr(first, end - first), fb::expectations_markdown(fb::builtin_expectations()))
      << "regenerate it: build/fabricbench expectations --markdown";
}

TEST(ExpectationsDoc, SizesSayTheirRange) {
  fb::ExpectationRow e;
  EXPECT_EQ(fb::sizes_text(e), "any");
  e.min_bytes = kGi;
  EXPECT_EQ(fb::sizes_text(e), ">= 1 GiB");
  e.max_bytes = 8 * kGi - 1;
  EXPECT_EQ(fb::sizes_text(e), "1 GiB up to below 8 GiB");
  e.max_bytes = 8 * kGi;
  EXPECT_EQ(fb::sizes_text(e), "1 GiB to 8 GiB");
  e.min_bytes = 8 * kGi;
  EXPECT_EQ(fb::sizes_text(e), "8 GiB");
}
