// The verdict contract (docs/verdicts.md, "The verdict contract") and a site's baseline
// (`--expectations FILE`): statuses and actions from findings, UNKNOWN for checks that could not
// run, and a site file that changes a verdict as documented. Documents built here, not measured.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <set>

#include "analyse/expect/expectations.hpp"
#include "analyse/expect/expectations_file.hpp"
#include "analyse/judge.hpp"
#include "analyse/verdict/verdict_contract.hpp"
#include "core/error.hpp"
#include "core/file_io.hpp"
#include "model/result_json.hpp"

namespace {

constexpr std::uint64_t kGi = 1ULL << 30;

fb::Result eight_h200(double busbw_4g) {
  fb::Result r;
  r.status = fb::RunStatus::complete;
  fb::Run run;
  run.collective = "all_reduce";
  for (int i = 0; i < 8; ++i) {
    r.gpus.push_back({i, i, "NVIDIA H200", "", 0, 90, "node0"});
    run.gpus.push_back(i);
  }
  fb::Point p;
  p.bytes = 4 * kGi;
  p.busbw_gbps = busbw_4g;
  p.time_us.median_ci = 0.005;
  p.nccl_algo = "NVLS";  // as NCCL's log would say (synthesised)
  run.points.push_back(p);
  r.runs.push_back(run);
  return r;
}

const fb::CheckVerdict* check(const fb::Verdict& v, const std::string& name) {
  const auto it =
      std::find_if(v.checks.begin(), v.checks.end(), [&](const auto& c) { return c.check == name; });
  return it == v.checks.end() ? nullptr : &*it;
}

std::string usage_error(const std::string& text) {
  try {
    fb::parse_expectations(text, "site.json");
  } catch (const fb::Error& e) {
    EXPECT_EQ(e.code(), fb::ExitCode::usage);
    return e.what();
  }
  return "";
}

constexpr const char* kSite = R"({"schema": "fabricbench.expectations/1", "rows": [
  {"gpu": "H200", "gpus": 8, "figure": "all_reduce", "min_bytes": 1073741824, "algo": "NVLS", "value": 380,
   "tolerance": 0.05, "source": "site baseline: hgx-h200 class, 12 healthy nodes", "date": "2026-11-20"}]})";

}  // namespace

TEST(VerdictContract, SeveritiesMapToStatusesAndActions) {
  auto r = eight_h200(478);
  std::vector<fb::Finding> f{{"DATA_WRONG", fb::Severity::error, "3 wrong", "", ""},
                             {"ENV_NCCL_OVERRIDE", fb::Severity::warning, "NCCL_ALGO=Ring", "", ""},
                             {"TOPO_NUMA_SPREAD", fb::Severity::info, "nodes 0, 1", "", ""},
                             {"SOMETHING_NEW", fb::Severity::info, "x", "", ""}};
  const auto v = fb::verdict_of(r, f);
  EXPECT_EQ(check(v, "run")->status, fb::CheckStatus::critical);
  EXPECT_EQ(check(v, "run")->action, fb::CheckAction::drain);
  EXPECT_EQ(check(v, "run")->evidence, "3 wrong");
  EXPECT_EQ(check(v, "environment")->status, fb::CheckStatus::warning);
  EXPECT_EQ(check(v, "environment")->action, fb::CheckAction::investigate);
  EXPECT_EQ(check(v, "topology")->status, fb::CheckStatus::info);
  EXPECT_EQ(check(v, "collectives_expected")->status, fb::CheckStatus::pass);  // ran clean
  EXPECT_EQ(check(v, "other")->codes, std::vector<std::string>{"SOMETHING_NEW"});
  EXPECT_EQ(check(v, "scaling"), nullptr);         // no scale runs: does not apply
  EXPECT_EQ(v.status, fb::CheckStatus::critical);  // the worst check
  EXPECT_EQ(v.action, fb::CheckAction::drain);
  EXPECT_EQ(v.expectations, "built-in");
}

TEST(VerdictContract, ChecksThatCouldNotRunAreUnknown) {
  const auto v = fb::verdict_of(eight_h200(478), {});
  EXPECT_EQ(check(v, "topology")->status, fb::CheckStatus::unknown);
  EXPECT_EQ(check(v, "topology")->evidence,
            "the document has no topology: --topo FILE (nvidia-smi topo -m or rocm-smi --showtopo)");
  // Without a topology the GPU table's H200 row still gives the fabric: the ceiling's check can run.
  EXPECT_EQ(check(v, "collectives_ceiling")->status, fb::CheckStatus::pass);
  auto unknown_gpu = eight_h200(478);
  for (auto& g : unknown_gpu.gpus) g.name = "NVIDIA H999";
  EXPECT_EQ(check(fb::verdict_of(unknown_gpu, {}), "collectives_ceiling")->status, fb::CheckStatus::unknown);
  EXPECT_EQ(check(v, "transports")->status, fb::CheckStatus::unknown);
  EXPECT_EQ(check(v, "host")->status, fb::CheckStatus::unknown);
  EXPECT_EQ(check(v, "run")->status, fb::CheckStatus::pass);
  EXPECT_EQ(v.status, fb::CheckStatus::unknown);  // UNKNOWN ranks above INFO, below WARNING
  EXPECT_EQ(v.action, fb::CheckAction::none);
}

TEST(VerdictContract, RoundTripsThroughTheDocument) {
  auto r = eight_h200(372);
  r.expectations = fb::parse_expectations(kSite, "site.json");
  fb::judge(r);
  const auto back = fb::parse_result(nlohmann::json(r).dump());
  ASSERT_TRUE(back.verdict);
  EXPECT_EQ(back.verdict->status, r.verdict->status);
  EXPECT_EQ(back.verdict->checks.size(), r.verdict->checks.size());
  EXPECT_EQ(back.verdict->expectations, "site.json");
  ASSERT_TRUE(back.expectations);
  EXPECT_EQ(back.expectations->rows.at(0).max_bytes, fb::kAnyBytes);
  EXPECT_DOUBLE_EQ(back.expectations->rows.at(0).tolerance, 0.05);
}

// The built-in NVLS row (478, 10%) warns at 372; the site's measured baseline (380, 5%) passes it:
// its rows replace the built-in rows of each model and figure it names.
TEST(SiteBaseline, ChangesTheVerdictAsDocumented) {
  auto builtin = eight_h200(372);
  fb::judge(builtin);
  EXPECT_EQ(builtin.verdict->status, fb::CheckStatus::warning);

  auto site = eight_h200(372);
  site.expectations = fb::parse_expectations(kSite, "site.json");
  fb::judge(site);
  EXPECT_EQ(check(*site.verdict, "collectives_expected")->status, fb::CheckStatus::pass);
  EXPECT_EQ(site.verdict->expectations, "site.json");

  auto below = eight_h200(355);  // 380 less 5% is 361
  below.expectations = site.expectations;
  fb::judge(below);
  const auto& f = below.findings;
  const auto it =
      std::find_if(f.begin(), f.end(), [](const auto& x) { return x.code == "BUSBW_BELOW_EXPECTED"; });
  ASSERT_NE(it, f.end());
  EXPECT_NE(it->evidence.find("of the expected 380.0 GB/s (site baseline: hgx-h200 class"), std::string::npos)
      << it->evidence;
  // The built-in H200 all_reduce rows are replaced whole: the 2-GPU rows no longer hold; other
  // figures of the model (its pairs) and other models keep their built-in rows.
  EXPECT_FALSE(fb::expected_for(below, {"NVIDIA H200", 2, 1, "all_reduce", kGi, ""}));
  EXPECT_TRUE(fb::expected_for(below, {"NVIDIA H200", 2, 1, "all_gather", kGi, ""}));
  EXPECT_DOUBLE_EQ(fb::expected_for(below, {"NVIDIA H200", 0, 1, "pair", 0, ""})->value, 394);
  EXPECT_TRUE(fb::expected_for(below, {"NVIDIA H100 80GB HBM3", 8, 1, "all_reduce", kGi, "RING"}));
}

TEST(SiteBaseline, ABadFileIsOneLineNamingTheFileAndTheProblem) {
  EXPECT_TRUE(usage_error("{").starts_with("site.json: not a JSON document: ")) << usage_error("{");
  EXPECT_EQ(usage_error(R"({"rows": []})"),
            "site.json: not an expectations file: expected an object with \"schema\": "
            "\"fabricbench.expectations/1\"");
  EXPECT_EQ(usage_error(R"({"schema": "fabricbench.expectations/1", "rows": []})"),
            "site.json: rows: expected a non-empty array of rows");
  const std::string row = R"({"gpu": "H200", "figure": "all_reduce", "source": "s", "date": "2026-11-20", )";
  EXPECT_EQ(usage_error(std::string(R"({"schema": "fabricbench.expectations/1", "rows": [)") + row +
                        R"("value": -3}]})"),
            "site.json: rows[0].value: must be above 0, got -3");
  EXPECT_EQ(usage_error(std::string(R"({"schema": "fabricbench.expectations/1", "rows": [)") + row +
                        R"("value": 3, "speed": 1}]})"),
            "site.json: rows[0]: unknown member 'speed'");
  EXPECT_EQ(
      usage_error(std::string(R"({"schema": "fabricbench.expectations/1", "rows": [)") +
                  R"({"gpu": "H200", "figure": "allreduce", "value": 3, "source": "s", "date": "d"}]})"),
      "site.json: rows[0].figure: unknown figure 'allreduce' (a collective's name or pair, host, h2d_sm, "
      "d2h_sm, local_copy, host_latency)");
  EXPECT_EQ(usage_error(std::string(R"({"schema": "fabricbench.expectations/1", "rows": [)") + row +
                        R"("value": 3, "tolerance": 2}]})"),
            "site.json: rows[0].tolerance: must be a fraction from 0 to 1, got 2");
  const auto one_row = [](const std::string& members) {
    return usage_error(R"({"schema": "fabricbench.expectations/1", "rows": [{)" + members + "}]}");
  };
  EXPECT_EQ(one_row(R"("gpu": "H200", "figure": "all_reduce", "value": 3, "source": "s")"),
            "site.json: rows[0]: no 'date' (every row has gpu, figure, value, source and date)");
  EXPECT_EQ(
      one_row(R"("gpu": "H200", "figure": "all_reduce", "value": "3", "source": "s", "date": "2026-11-20")"),
      "site.json: rows[0].value: expected a number");
  EXPECT_EQ(one_row(R"("gpu": "H200", "figure": "all_reduce", "value": 3, "gpus": 8.5, "source": "s", )"
                    R"("date": "2026-11-20")"),
            "site.json: rows[0].gpus: expected a whole number");
  EXPECT_EQ(
      one_row(
          R"("gpu": "nvidia h200", "figure": "all_reduce", "value": 3, "source": "s", "date": "2026-11-20")"),
      "site.json: rows[0].gpu: 'nvidia h200' is not a model key: write 'H200'");
  EXPECT_EQ(
      one_row(R"("gpu": "H200", "figure": "all_reduce", "value": 3, "source": "s", "date": "yesterday")"),
      "site.json: rows[0].date: 'yesterday' is not a date as YYYY-MM-DD");
  for (const auto& text : {std::string("{"), std::string(R"({"rows": 1})")})
    EXPECT_EQ(usage_error(text).find('\n'), std::string::npos);
}

// Every code docs/verdicts.md lists belongs to a named check, none to "other".
TEST(VerdictContract, EveryDocumentedCodeHasItsCheck) {
  const std::string doc = fb::read_file(std::string(FB_FIXTURE_DIR) + "/../../docs/verdicts.md");
  const std::regex code(
      R"(\b((?:RUN|GPU|DATA|RESULT|TOPO|NCCL|NET|ENV|BUSBW|NO|NVLS|SCALE|ALGO|ONE|P2P|HOST|NIC)_[A-Z0-9_]+)\b)");
  std::set<std::string> codes;
  for (std::sregex_iterator it(doc.begin(), doc.end(), code), end; it != end; ++it) codes.insert((*it)[1]);
  codes.erase("NCCL_NVLS_ENABLE");  // NCCL's variables, not codes
  std::erase_if(codes, [](const std::string& c) { return c.starts_with("NCCL_") && c != "NCCL_FALLBACK"; });
  ASSERT_GT(codes.size(), 30U);
  for (const auto& c : codes) {
    const auto v = fb::verdict_of(eight_h200(478), {{c, fb::Severity::info, "x", "", ""}});
    EXPECT_EQ(check(v, "other"), nullptr) << c << " has no check";
  }
}
