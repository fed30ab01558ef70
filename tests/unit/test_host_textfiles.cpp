// Each host's own metrics file under a job (report/prometheus_textfile.hpp host_prometheus_textfile,
// engine/job/host_textfiles.hpp): built from the judged document and the host's name alone, so that the
// 2- and 4-host documents give one golden file per host, each holding only its host's series
// (tests/cli/prometheus_promtool.sh runs promtool over them); the hand-off message and its writer.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <sstream>

#include "analyse/judge.hpp"
#include "app/doctor_verdict_files.hpp"
#include "core/file_io.hpp"
#include "engine/job/host_textfiles.hpp"
#include "fake_job.hpp"
#include "golden.hpp"
#include "report/prometheus_textfile.hpp"

namespace {

fb::Result judged(const std::string& name) {
  auto r = result_fixture(name);
  fb::judge(r);
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
// carry only what concerns every host (NCCL over sockets: NET_SOCKET names every host's GPUs). The GPUs
// are a class without a reference datacenter network, so that the sockets stay the warning they are
// (H200 hosts would get SIGNATURE_SOCKETS, an error of the whole job: test_prometheus.cpp).
TEST(HostTextfiles, FourHostsEachWithItsOwnVerdict) {
  auto r = result_fixture("synthetic-4host.json");
  for (auto& g : r.gpus) g.name = "NVIDIA GH200 480GB";
  for (auto& s : r.hosts)
    for (auto& g : s.gpus) g.name = "NVIDIA GH200 480GB";
  fb::judge(r);
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

// The message holds the texts and never the path: each rank writes at its own --prometheus.
TEST(HostTextfiles, TheHandOffMessageCarriesTheTextsNotThePath) {
  const fb::HostTextfiles files{"/var/lib/node_exporter/textfile/fb-%h.prom",
                                {{"n1", "a 1\n"}, {"n2", "b 2\n"}}};
  const auto message = fb::host_textfiles_message(files);
  EXPECT_EQ(message.find("node_exporter"), std::string::npos) << message;
  const auto back = fb::host_textfiles_request(message);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(*back, files.texts);
  EXPECT_FALSE(fb::host_textfiles_request(fb::kJobNoMorePlans).has_value());
  EXPECT_FALSE(fb::host_textfiles_request("describe hosts").has_value());
  // What another rank might send instead: a path is ignored, a text that is not one dropped, a
  // message that is not a map of texts or nests too deep an error naming it.
  const auto planted = fb::host_textfiles_request(R"(host textfiles
{"path":"/etc/cron.d/x","texts":{"n1":"a 1\n","n2":5}})");
  ASSERT_TRUE(planted.has_value());
  EXPECT_EQ(*planted, (std::map<std::string, std::string>{{"n1", "a 1\n"}}));
  EXPECT_THROW(fb::host_textfiles_request("host textfiles\n[1]"), fb::Error);
  EXPECT_THROW(fb::host_textfiles_request("host textfiles\n{\"texts\":" + std::string(1000, '[') + "}"),
               fb::Error);
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

namespace {

// Rank 0 of a job on hosts n1 (ranks 0, 1) and n2 (rank 2): what it broadcasts is recorded, and the
// other ranks' answers are what `replies` says (n2's first rank, rank 2, could not write).
class TwoHostJob final : public ThreeRankJob {
 public:
  TwoHostJob() : ThreeRankJob({0, 1, 0}) {}
  std::vector<std::string> allgather(const std::string& mine) override {
    sent.push_back(mine);
    return {mine, "", replies};
  }
  std::vector<std::string> sent;
  std::string replies;
};

}  // namespace

// The doctor's first document under a job: every host is handed a "not finished" textfile under its
// own name (CRITICAL, drain), rank 0's host writes its own, and a host that could not write is named.
TEST(HostTextfiles, RankZeroHandsEveryHostItsOwnFile) {
  const auto dir = std::filesystem::temp_directory_path() / ("fb-hand-out-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  TwoHostJob job;
  const InstalledJob installed(job);
  fb::DoctorOptions o;
  o.out_dir = (dir / "res").string();
  o.prometheus = (dir / "fb-%h.prom").string();
  fb::DoctorVerdictFiles files(o, {"fabricbench", "doctor", "--prolog"});
  auto first = result_fixture("h200x2-doctor-quick.json");
  first.host.hostname = "n1";
  for (auto& g : first.gpus) g.host = "n1";
  first.status = fb::RunStatus::running;
  files.begun(first);
  const auto mine = fb::read_file((dir / "fb-n1.prom").string());
  EXPECT_NE(mine.find("fabricbench_verdict{host=\"n1\",status=\"CRITICAL\",action=\"drain\"} 1"),
            std::string::npos)
      << mine;
  EXPECT_FALSE(std::filesystem::exists(dir / "fb-n2.prom"));  // n2's own rank writes it there
  ASSERT_EQ(job.sent.size(), 2u);                             // the message, then rank 0's answer
  const auto handed = fb::host_textfiles_request(job.sent[0]);
  ASSERT_TRUE(handed.has_value());
  EXPECT_EQ(job.sent[0].find(o.prometheus), std::string::npos);  // each rank's own --prometheus
  ASSERT_EQ(handed->size(), 2u);
  expect_only_host(handed->at("n2"), "n2");
  EXPECT_NE(handed->at("n2").find("fabricbench_verdict_level{host=\"n2\"} 4"), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(dir / "res" / "cluster.prom"));
  job.replies = "n2: cannot write /x/fb-n2.prom";
  job.sent.clear();
  first.status = fb::RunStatus::complete;
  fb::judge(first);
  EXPECT_THROW(files.ended(first), fb::Error);  // the doctor exits 4 naming n2
  std::filesystem::remove_all(dir);
}
