#pragma once
// Test doubles of a job: one installed for a test's length, and a job seen from its rank 0 (for what rank 0
// does with its hosts).
#include <string>
#include <vector>

#include "comm/bootstrap.hpp"
#include "comm/job_session.hpp"
#include "core/error.hpp"

// Ranks 0 and 1 on host n1, rank 2 on n2, with the local ranks given; the other ranks' answers are the
// test's (allgather).
class ThreeRankJob : public fb::JobSession, public fb::Bootstrap {
 public:
  explicit ThreeRankJob(std::vector<int> local_ranks) {
    set_world(0, {"n1", "n1", "n2"}, std::move(local_ranks));
  }
  [[nodiscard]] fb::Bootstrap& bootstrap() override { return *this; }
  [[nodiscard]] fb::JobLauncher launcher_kind() const override { return fb::JobLauncher::torchrun; }
  [[noreturn]] void abort(fb::ExitCode code, const std::string& why) override { throw fb::Error(code, why); }
  void finish() override {}
  [[nodiscard]] int rank() const override { return 0; }
  [[nodiscard]] int size() const override { return 3; }
};

// Installs `session` for one test.
struct InstalledJob {
  explicit InstalledJob(fb::JobSession& session) { fb::JobSession::install(&session); }
  ~InstalledJob() { fb::JobSession::install(nullptr); }
  InstalledJob(const InstalledJob&) = delete;
  InstalledJob& operator=(const InstalledJob&) = delete;
};
