// The threads launcher's in-process worker hands its communicators' teardown to a thread of its own
// (comm/background_teardown.hpp, issue 52): it returns before the teardown ends, the next plan waits
// for it, and any other thread still tears down here and now.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <future>

#include "comm/background_teardown.hpp"
#include "launch/exiting_workers.hpp"
#include "launch/worker_handle.hpp"

namespace {

using namespace std::chrono_literals;

TEST(BackgroundTeardown, RunsHereOnAThreadThatDoesNotAllowIt) {
  bool torn = false;
  fb::tear_down([&] { torn = true; });
  EXPECT_TRUE(torn);
  EXPECT_TRUE(fb::wait_for_background_teardowns(0ms));
}

TEST(BackgroundTeardown, AnInProcessWorkerHandsItOverAndTheNextPlanWaitsForIt) {
  std::atomic<bool> torn{false};
  std::promise<void> release;
  const std::shared_future<void> released = release.get_future().share();
  std::promise<void> handed;
  auto returned = handed.get_future();
  auto worker = fb::spawn_thread(0, [&](int fd) {
    fb::tear_down([released, &torn] {
      released.wait();
      torn = true;
    });
    handed.set_value();  // only reached here, before the release, when the teardown runs elsewhere
    ::close(fd);
  });
  const bool in_background = returned.wait_for(10s) == std::future_status::ready;
  EXPECT_TRUE(in_background) << "tear_down waited for the teardown on the worker's thread";
  EXPECT_TRUE(fb::in_process_worker_started());
  EXPECT_FALSE(torn);
  EXPECT_FALSE(fb::wait_for_background_teardowns(50ms)) << "no teardown was left running";
  release.set_value();
  fb::wait_for_exiting_workers();  // what the launcher does before the next plan's workers
  EXPECT_TRUE(torn);
  EXPECT_TRUE(fb::wait_for_background_teardowns(0ms));
}

}  // namespace
