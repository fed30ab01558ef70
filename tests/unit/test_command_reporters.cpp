// The console tables and CSV of algos, scale and p2p against golden files, built from saved
// result documents (no GPU). Regenerate after an intended change with
// FB_UPDATE_GOLDEN=1 ./unit_tests --gtest_filter='CommandReporters.*' and review the diff.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "analyse/judge.hpp"
#include "analyse/run/algo_selection.hpp"
#include "analyse/run/p2p_analysis.hpp"
#include "analyse/run/scaling.hpp"
#include "core/file_io.hpp"
#include "golden.hpp"
#include "model/result_json.hpp"
#include "report/algos_report.hpp"
#include "report/p2p_reporters.hpp"
#include "report/scale_report.hpp"

namespace {

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("fabricbench-test-" + name)).string();
}

// The configurations of the saved `algos` runs, as the sweep had them.
fb::AlgosTable algos_table(const fb::Result& r) {
  fb::AlgosTable t;
  t.collective = "all_reduce";
  t.dtype = "float";
  t.op = "sum";
  t.nranks = 2;
  for (const auto& run : r.runs) {
    if (run.kind != fb::RunKind::algos) continue;
    const auto value = [&](const char* var) {
      const auto it = run.forced.find(var);
      return it == run.forced.end() ? std::string() : it->second;
    };
    t.configs.push_back({value("NCCL_ALGO"), value("NCCL_PROTO"), run.points, run.failure});
    if (t.configs.size() == 1) {
      t.transports = run.nccl_transports;
      t.coll_channels = run.nccl_coll_channels;
      t.p2p_channels = run.nccl_p2p_channels;
    }
  }
  return t;
}

fb::Result scale_result(bool with_failure) {
  auto r = result_fixture("synthetic-scale.json");
  if (with_failure) {  // the 4-GPU worst group timed out
    auto& run = r.runs.at(r.runs.size() - 2);
    run.failure = "rank 3 (GPU 6) timed out after 120 s during 'all_reduce float sum 1 GiB out-of-place'";
    run.points.clear();
  }
  r.findings = fb::check_scaling(r);
  return r;
}

}  // namespace

TEST(CommandReporters, AlgosGrid) {
  auto r = result_fixture("h200x2-combined.json");
  r.host.comm = {"NCCL", "2.28.3", 22803,
                 "/usr/lib/x86_64-linux-gnu/libnccl.so.2"};  // this part was not saved
  auto table = algos_table(r);
  table.configs.back().failure = "NCCL WARN no algorithm/protocol available";  // one that could not run
  r.findings = fb::forced_beats_default(table.configs, 0.01, 0);
  std::ostringstream out;
  fb::AlgosConsoleReporter rep(out, table);
  rep.end(r);
  expect_golden("algos_grid.txt", out.str());
}

TEST(CommandReporters, AlgosWinnersCarryNcclsOwnChoice) {
  const auto table = algos_table(result_fixture("h200x2-combined.json"));
  const auto w = fb::winners_with_nccl_choice(table.configs);
  ASSERT_EQ(w.size(), table.configs[0].points.size());
  for (std::size_t i = 0; i < w.size(); ++i) {
    EXPECT_EQ(w[i].nccl_algo, table.configs[0].points[i].nccl_algo);
    EXPECT_EQ(w[i].nccl_proto, table.configs[0].points[i].nccl_proto);
  }
}

TEST(CommandReporters, TunerFileAndItsNote) {
  const auto r = result_fixture("h200x2-combined.json");
  const auto path = temp_path("tuner.conf");
  std::ostringstream out;
  fb::TunerCsvReporter rep(out, path, algos_table(r), 1);
  rep.end(r);
  EXPECT_EQ(out.str(),
            "# tuner configuration written to " + path + " (load it with NCCL_TUNER_CONFIG_FILE)\n");
  expect_golden("algos_tuner.conf", fb::read_file(path));
  std::filesystem::remove(path);
}

TEST(CommandReporters, ScaleTableAndCsv) {
  const auto r = scale_result(false);
  std::ostringstream out;
  fb::ScaleConsoleReporter rep(out, "all_reduce", 1ULL << 30);
  rep.end(r);
  expect_golden("scale_table.txt", out.str());
  expect_golden("scale.csv", fb::scale_csv(r));
}

TEST(CommandReporters, ScaleFailedGroupIsSaidNotHidden) {
  const auto r = scale_result(true);
  std::ostringstream out;
  fb::ScaleConsoleReporter rep(out, "all_reduce", 1ULL << 30);
  rep.end(r);
  expect_golden("scale_table_failed.txt", out.str());
  const auto path = temp_path("scale.csv");
  fb::ScaleCsvReporter csv(path);
  csv.end(r);
  expect_golden("scale_failed.csv", fb::read_file(path));
  std::filesystem::remove(path);
}

TEST(CommandReporters, P2pTableAndCsv) {
  auto r = result_fixture("h200x2-combined.json");
  r.findings = fb::check_p2p(r.p2p, *r.topology, 0.10);
  std::ostringstream out;
  fb::P2pConsoleReporter rep(out, {512ULL << 20, 16, 5});
  rep.begin(r);
  rep.end(r);
  expect_golden("p2p_table.txt", out.str());
  const auto path = temp_path("p2p.csv");
  fb::P2pCsvReporter csv(path);
  csv.end(r);
  expect_golden("p2p.csv", fb::read_file(path));
  std::filesystem::remove(path);
}
