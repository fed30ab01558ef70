// Reporters against golden files. Regenerate after an intended change with
// FB_UPDATE_GOLDEN=1 ./unit_tests --gtest_filter='Reporters.*' and review the diff.
#include <gtest/gtest.h>

#include <sstream>

#include "core/error.hpp"
#include "core/file_io.hpp"
#include "golden.hpp"
#include "model/result_json.hpp"
#include "report/console_reporter.hpp"
#include "report/csv_reporter.hpp"
#include "report/json_reporter.hpp"
#include "sample_result.hpp"

namespace {

// Replays a finished result through a reporter as the launcher would: begin, each point, end.
void replay(fb::Reporter& rep, const fb::Result& full) {
  fb::Result growing = full;
  for (auto& run : growing.runs) run.points.clear();
  growing.runs.clear();
  rep.begin(growing);
  for (std::size_t r = 0; r < full.runs.size(); ++r) {
    auto run = full.runs[r];
    run.points.clear();
    growing.runs.push_back(run);
    for (std::size_t p = 0; p < full.runs[r].points.size(); ++p) {
      growing.runs[r].points.push_back(full.runs[r].points[p]);
      rep.point(growing, r, p);
    }
  }
  rep.end(full);
}

}  // namespace

TEST(Reporters, ConsoleTable) {
  std::ostringstream out;
  fb::ConsoleReporter rep(out);
  replay(rep, sample_result());
  expect_golden("console_run.txt", out.str());
}

TEST(Reporters, ConsoleShowsFailureAndDataErrors) {
  auto r = sample_result();
  r.status = fb::RunStatus::failed;
  r.failure =
      "rank 1 (GPU 1) was killed by signal 9 (Killed) during 'all_reduce float sum 1 GiB out-of-place'";
  r.runs[0].points[0].wrong = 3;
  std::ostringstream out;
  fb::ConsoleReporter rep(out, /*quiet=*/true);
  replay(rep, r);
  expect_golden("console_failed.txt", out.str());
}

TEST(Reporters, Csv) {
  std::ostringstream out;
  fb::CsvReporter rep(out);
  replay(rep, sample_result());
  expect_golden("run.csv", out.str());
}

// After begin and after every point the file holds the document as it stands then, whole,
// so that a run that dies keeps every point it finished.
TEST(Reporters, JsonFileIsTheWholeDocumentAfterEveryPoint) {
  const std::string path = ::testing::TempDir() + "/fb_result.json";
  const auto on_disk = [&] { return nlohmann::json::parse(fb::read_file(path)); };
  const auto full = sample_result();
  ASSERT_EQ(full.runs.size(), 1u);
  ASSERT_EQ(full.runs[0].points.size(), 2u);
  fb::JsonReporter rep(path);
  auto growing = full;
  growing.runs[0].points.clear();
  growing.status = fb::RunStatus::running;
  rep.begin(growing);
  EXPECT_EQ(on_disk(), nlohmann::json(growing));
  for (std::size_t p = 0; p < full.runs[0].points.size(); ++p) {
    growing.runs[0].points.push_back(full.runs[0].points[p]);
    rep.point(growing, 0, p);
    const auto doc = on_disk();
    ASSERT_EQ(doc.at("runs").at(0).at("points").size(), p + 1) << "after point " << p;
    EXPECT_EQ(doc.at("runs").at(0).at("points").at(p).at("bytes").get<std::uint64_t>(),
              full.runs[0].points[p].bytes);
    EXPECT_EQ(doc, nlohmann::json(growing)) << "after point " << p;
  }
  rep.end(full);
  EXPECT_EQ(on_disk().at("status"), "complete");
  EXPECT_EQ(on_disk(), nlohmann::json(full));
}

// The run could not deliver its output: exit 4, naming the file the user gave.
TEST(Reporters, UnwritableJsonPathIsARunFailure) {
  fb::JsonReporter rep("/nonexistent-dir/x.json");
  try {
    rep.begin(sample_result());
    FAIL();
  } catch (const fb::Error& e) {
    EXPECT_EQ(e.code(), fb::ExitCode::run_failed);
    EXPECT_NE(std::string(e.what()).find("cannot write /nonexistent-dir/x.json:"), std::string::npos)
        << e.what();
  }
}
