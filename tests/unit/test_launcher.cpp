// The launcher against real child processes (tests/helpers/fake_worker.cpp): a run that
// finishes, a worker that exits with an error, one that is killed, one that hangs past the
// timeout, one that reports a fatal error, a run stopped by a real SIGINT. Each run must end
// for the right reason, name the worker, and leave no child behind (killed and reaped, not
// waited for).
#include <gtest/gtest.h>
#include <signal.h>

#include <cerrno>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "core/interrupt.hpp"
#include "launch/exiting_workers.hpp"
#include "launch/protocol.hpp"
#include "launch/supervisor.hpp"

namespace {

struct Observed {
  fb::SupervisorOutcome outcome;
  std::vector<nlohmann::json> messages;
  std::vector<pid_t> pids;
  double seconds = 0;
};

Observed launch(const std::vector<std::string>& modes, double timeout_s = 30) {
  std::vector<fb::WorkerHandle> workers;
  std::vector<nlohmann::json> starts;
  Observed o;
  const int n = static_cast<int>(modes.size());
  for (int i = 0; i < n; ++i) {
    workers.push_back(fb::spawn_process(i, {FB_FAKE_WORKER}));
    o.pids.push_back(workers.back().pid);
    starts.push_back({{"t", fb::msg::start}, {"process", i}, {"nprocs", n}, {"mode", modes[i]}});
  }
  fb::Supervisor sup(std::move(workers), timeout_s,
                     [&](int, const nlohmann::json& m) { o.messages.push_back(m); });
  const auto t0 = std::chrono::steady_clock::now();
  o.outcome = sup.run(starts);
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return o;
}

// No such process: it has exited and been reaped (a zombie still answers kill(pid, 0)).
bool gone(pid_t pid) { return ::kill(pid, 0) == -1 && errno == ESRCH; }

// Workers that finished are left to exit on their own; the next plan waits for them first.
void expect_all_gone(const Observed& o) {
  fb::wait_for_exiting_workers();
  for (const pid_t pid : o.pids) EXPECT_TRUE(gone(pid)) << "child " << pid << " is still there";
}

}  // namespace

TEST(Launcher, WorkersExchangeThroughTheHubAndFinish) {
  const auto o = launch({"ok", "ok", "ok"});
  EXPECT_TRUE(o.outcome.ok) << o.outcome.reason;
  int gathered = 0;
  int steps = 0;
  for (const auto& m : o.messages) {
    if (m.at("t") == "gathered") {
      ++gathered;
      EXPECT_EQ(m.at("all"), nlohmann::json({"w0", "w1", "w2"}));
    }
    if (m.at("t") == fb::msg::begin) ++steps;  // handed on too, for run --verbose's timings
  }
  EXPECT_EQ(gathered, 3);
  EXPECT_EQ(steps, 3);
  expect_all_gone(o);
}

// A finished worker is not waited for while it exits; waiting for it later reaps it.
TEST(Launcher, FinishedWorkersExitWhileTheLauncherGoesOn) {
  const auto o = launch({"slow-exit", "slow-exit"});
  EXPECT_TRUE(o.outcome.ok) << o.outcome.reason;
  for (const pid_t pid : o.pids) EXPECT_FALSE(gone(pid)) << "the launcher waited for " << pid;
  expect_all_gone(o);
}

// One that never finishes exiting is killed once the grace runs out.
TEST(Launcher, WorkerStuckInItsExitIsKilledBeforeTheNextPlan) {
  const auto o = launch({"linger"});
  EXPECT_TRUE(o.outcome.ok) << o.outcome.reason;
  const auto t0 = std::chrono::steady_clock::now();
  fb::wait_for_exiting_workers(0.3);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 30.0);
  for (const pid_t pid : o.pids) EXPECT_TRUE(gone(pid));
}

// The healthy peer waits in a barrier for ever: only noticing the exit ends the run before the
// timeout, whose reason would differ.
TEST(Launcher, WorkerExitingWithAnErrorEndsTheRun) {
  const auto o = launch({"ok", "exit"});
  EXPECT_FALSE(o.outcome.ok);
  EXPECT_EQ(o.outcome.code, fb::ExitCode::run_failed);
  EXPECT_EQ(o.outcome.failed_workers, std::vector<int>{1});
  EXPECT_EQ(o.outcome.reason, "exited with status 3");
  EXPECT_EQ(o.outcome.step, "step of exit");
  expect_all_gone(o);
}

TEST(Launcher, KilledWorkerIsNamedWithItsSignal) {
  const auto o = launch({"kill", "ok"});
  EXPECT_FALSE(o.outcome.ok);
  EXPECT_EQ(o.outcome.failed_workers, std::vector<int>{0});
  EXPECT_NE(o.outcome.reason.find("killed by signal 9"), std::string::npos) << o.outcome.reason;
  EXPECT_EQ(o.outcome.step, "step of kill");
  expect_all_gone(o);
}

// One worker: with a healthy peer waiting in a barrier, both pass the timeout at nearly the
// same moment, and which of them the first late check names is a race.
TEST(Launcher, HangingWorkerIsStoppedAtTheTimeout) {
  const auto o = launch({"hang"}, /*timeout_s=*/1.0);
  EXPECT_FALSE(o.outcome.ok);
  EXPECT_EQ(o.outcome.code, fb::ExitCode::run_failed);
  EXPECT_EQ(o.outcome.failed_workers, std::vector<int>{0});
  EXPECT_EQ(o.outcome.reason, "did not finish within --timeout 1 s");
  EXPECT_EQ(o.outcome.step, "step of hang");
  EXPECT_GE(o.seconds, 1.0);   // not before the timeout
  EXPECT_LT(o.seconds, 60.0);  // and the timeout, not the hour the worker sleeps
  expect_all_gone(o);          // the sleeper was killed
}

TEST(Launcher, FatalMessageCarriesItsExitCodeAndText) {
  const double timeout_s = 120;
  const auto o = launch({"fatal", "hang"}, timeout_s);
  EXPECT_FALSE(o.outcome.ok);
  EXPECT_EQ(o.outcome.code, fb::ExitCode::usage);
  EXPECT_EQ(o.outcome.failed_workers, std::vector<int>{0});
  EXPECT_EQ(o.outcome.reason, "boom");
  EXPECT_EQ(o.outcome.step, "step of fatal");
  EXPECT_LT(o.seconds, timeout_s);  // the hanging peer is killed, not waited for
  expect_all_gone(o);
}

TEST(Launcher, WorkerThatExitsWithoutFinishingIsAFailure) {
  const auto o = launch({"silent-exit", "ok"});
  EXPECT_FALSE(o.outcome.ok);
  EXPECT_EQ(o.outcome.failed_workers, std::vector<int>{0});
  EXPECT_EQ(o.outcome.reason, "exited with status 0");
  expect_all_gone(o);
}

TEST(Launcher, MissingExecutableIsReported) {
  std::vector<fb::WorkerHandle> workers;
  workers.push_back(fb::spawn_process(0, {"/nonexistent/fabricbench-worker"}));
  fb::Supervisor sup(std::move(workers), 5, [](int, const nlohmann::json&) {});
  const auto outcome = sup.run({{{"t", fb::msg::start}}});
  EXPECT_FALSE(outcome.ok);
  EXPECT_EQ(outcome.reason, "exited with status 127");
}

// Ctrl-C while workers hang: main()'s handler (core/interrupt) turns the real signal into a
// request the watch loop reads, and the run ends within a second, "interrupted", every child
// killed and reaped. Outside a run's scope the handler ends the process (tests/cli/interrupt.sh).
TEST(Launcher, SigintStopsHangingWorkersWithinASecond) {
  using Clock = std::chrono::steady_clock;
  fb::install_interrupt_handlers();
  Clock::time_point sent_at;
  std::thread ctrl_c([&sent_at] {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    sent_at = Clock::now();
    ::kill(::getpid(), SIGINT);
  });
  const auto o = launch({"hang", "hang"}, /*timeout_s=*/120);
  const auto ended_at = Clock::now();
  ctrl_c.join();
  // Timed from the signal itself: the thread starts sleeping before launch() starts its clock.
  const double after_signal_s = std::chrono::duration<double>(ended_at - sent_at).count();
  const bool requested = fb::interrupt_requested();
  fb::clear_interrupt_request();
  ::signal(SIGINT, SIG_DFL);
  EXPECT_TRUE(requested);
  EXPECT_FALSE(o.outcome.ok);
  EXPECT_EQ(o.outcome.code, fb::ExitCode::run_failed);
  EXPECT_EQ(o.outcome.reason, "interrupted");
  EXPECT_EQ(o.outcome.step, "step of hang");
  EXPECT_GE(after_signal_s, 0.0);  // not before the signal
  EXPECT_LT(after_signal_s, 1.0);  // within a second of it, not at the timeout
  expect_all_gone(o);
}

// A request stays set: the next run of the same command (algos' next configuration, scale's
// next group) ends at once instead of starting its workers' work.
TEST(Launcher, InterruptRequestedBeforeARunEndsItAtOnce) {
  fb::request_interrupt();
  const auto o = launch({"hang"}, /*timeout_s=*/120);
  fb::clear_interrupt_request();
  EXPECT_EQ(o.outcome.reason, "interrupted");
  EXPECT_LT(o.seconds, 1.0);
  expect_all_gone(o);
}
