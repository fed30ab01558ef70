// Each host's own metrics file under a job (report/prometheus_textfile.hpp host_prometheus_textfile,
// engine/host_textfiles.hpp): built from the judged document and the host's name alone, so that the
// 2- and 4-host documents give one golden file per host, each holding only its host's series
// (tests/cli/prometheus_promtool.sh runs promtool over them); the hand-off message and its writer.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <sstream>

#include "analyse/verdicts.hpp"
#include "app/doctor_verdict_files.hpp"
#include "core/file_io.hpp"
#include "engine/host_textfiles.hpp"
#include "golden.hpp"
#include "report/prometheus_textfile.hpp"

namespace {

fb::Result judged(const std::string& name) {
  auto r = result_fixture(name);
  fb::judge_result(r);
  return r;
}

// Every series (not a HELP or TYPE line) carries host="<host>" as its first label.
void expect_only_host(const std::string& text, const std::string& host) {
  std::istringstream lines(text);
  int series = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with('#')) continue;
    ++series;
    EXPECT_NE(line.find("{host=\"" + host + "\""), std::string::npos) << host << ": " << line;
  }
  EXPECT_GE(series, 8) << text;
}

std::string level_line(const std::string& host, int level) {
  return "fabricbench_verdict_level{host=\"" + host + "\"} " + std::to_string(level) + "\n";
}

}  // namespace

TEST(HostTextfiles, TwoHostsOneFileEach) {
  const auto r = judged("synthetic-2host-socket.json");
  for (const std::string host : {"node-a", "node-b"}) {
    const auto text = fb::host_prometheus_textfile(r, host);
    expect_only_host(text, host);
    expect_golden("prometheus_2host_" + host + ".prom", text);
  }
  const auto fake = judged("h200x1-fakehosts-torchrun-2x1.json");
  for (const std::string host : {"fbhost0", "fbhost1"})
    expect_only_host(fb::host_prometheus_textfile(fake, host), host);
}

// node-c's port down makes its own file WARNING, node-d's Xid 79 CRITICAL (drain); node-a and node-b
// carry only what concerns every host (NCCL over sockets: NET_SOCKET names every host's GPUs).
TEST(HostTextfiles, FourHostsEachWithItsOwnVerdict) {
  const auto r = judged("synthetic-4host.json");
  for (const std::string host : {"node-a", "node-b", "node-c", "node-d"}) {
    const auto text = fb::host_prometheus_textfile(r, host);
    expect_only_host(text, host);
    expect_golden("prometheus_4host_" + host + ".prom", text);
  }
  EXPECT_NE(fb::host_prometheus_textfile(r, "node-d").find(level_line("node-d", 4)), std::string::npos);
  EXPECT_NE(fb::host_prometheus_textfile(r, "node-c").find(level_line("node-c", 3)), std::string::npos);
  EXPECT_NE(fb::host_prometheus_textfile(r, "node-a").find(level_line("node-a", 3)), std::string::npos);
  // The cluster's file (rank 0's cluster.prom) holds every host's series.
  const auto cluster = fb::prometheus_textfile(r);
  for (const std::string host : {"node-a", "node-b", "node-c", "node-d"})
    EXPECT_NE(cluster.find("fabricbench_verdict{host=\"" + host + "\""), std::string::npos) << host;
}

TEST(HostTextfiles, AHostNotInTheDocumentIsAUsageError) {
  const auto r = judged("synthetic-4host.json");
  EXPECT_THROW(fb::host_prometheus_textfile(r, "node-e"), fb::Error);
}

// A job's first document holds rank 0's GPUs only: every other host's file says the same (unfinished)
// verdict under its own name.
TEST(HostTextfiles, AHostTheFirstDocumentLacksGetsItsVerdictUnderItsName) {
  auto r = judged("synthetic-2host-socket.json");
  r.gpus.resize(1);  // node-a's only
  const auto text = fb::textfile_for_host(r, "node-c");
  expect_only_host(text, "node-c");
}

TEST(HostTextfiles, TheHandOffMessageRoundTrips) {
  const fb::HostTextfiles files{"/var/lib/node_exporter/textfile/fb-%h.prom",
                                {{"n1", "a 1\n"}, {"n2", "b 2\n"}}};
  const auto back = fb::host_textfiles_request(fb::host_textfiles_message(files));
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->path, files.path);
  EXPECT_EQ(back->texts, files.texts);
  EXPECT_FALSE(fb::host_textfiles_request(fb::kJobNoMorePlans).has_value());
  EXPECT_FALSE(fb::host_textfiles_request("describe hosts\n").has_value());
  EXPECT_EQ(fb::textfile_path(files.path, "n2"), "/var/lib/node_exporter/textfile/fb-n2.prom");
  EXPECT_EQ(fb::textfile_path("/a/%h/%h.prom", "x"), "/a/x/x.prom");
  EXPECT_EQ(fb::textfile_path("/a/fb.prom", "x"), "/a/fb.prom");
}

// One writer per host (its first rank), its own text only; a file that cannot be written is one line.
TEST(HostTextfiles, TheFirstRankOfEachHostWritesItsOwn) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("fb-host-textfiles-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const fb::HostTextfiles files{(dir / "fb-%h.prom").string(), {{"n1", "a 1\n"}, {"n2", "b 2\n"}}};
  EXPECT_EQ(fb::write_host_textfile(files, "n1", false), "");
  EXPECT_FALSE(std::filesystem::exists(dir / "fb-n1.prom"));
  EXPECT_EQ(fb::write_host_textfile(files, "n1", true), "");
  EXPECT_EQ(fb::read_file((dir / "fb-n1.prom").string()), "a 1\n");
  EXPECT_FALSE(std::filesystem::exists(dir / "fb-n2.prom"));
  const fb::HostTextfiles nowhere{(dir / "missing" / "fb.prom").string(), {{"n1", "a 1\n"}}};
  const auto why = fb::write_host_textfile(nowhere, "n1", true);
  EXPECT_TRUE(why.starts_with("n1: ")) << why;
  std::filesystem::remove_all(dir);
}
