// Reporters against golden files. Regenerate after an intended change with
// FB_UPDATE_GOLDEN=1 ./unit_tests --gtest_filter='Reporters.*' and review the diff.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/error.hpp"
#include "core/file_io.hpp"
#include "core/result_json.hpp"
#include "report/console_reporter.hpp"
#include "report/csv_reporter.hpp"
#include "report/json_reporter.hpp"
#include "sample_result.hpp"

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void expect_golden(const std::string& name, const std::string& actual) {
  const std::string path = std::string(FB_GOLDEN_DIR) + "/" + name;
  if (std::getenv("FB_UPDATE_GOLDEN")) {
    std::ofstream(path) << actual;
    return;
  }
  EXPECT_EQ(actual, read_file(path)) << "golden file " << path;
}

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

TEST(Reporters, JsonFileIsTheWholeDocumentAfterEveryPoint) {
  const std::string path = ::testing::TempDir() + "/fb_result.json";
  fb::JsonReporter rep(path);
  auto r = sample_result();
  rep.begin(r);
  EXPECT_EQ(fb::parse_result(read_file(path)).runs.size(), 1u);
  rep.end(r);
  const auto back = fb::parse_result(read_file(path));
  EXPECT_EQ(nlohmann::json(back), nlohmann::json(r));
}

TEST(Reporters, UnwritableJsonPathIsAUsageError) {
  fb::JsonReporter rep("/nonexistent-dir/x.json");
  try {
    rep.begin(sample_result());
    FAIL();
  } catch (const fb::Error& e) {
    EXPECT_EQ(e.code(), fb::ExitCode::usage);
  }
}
