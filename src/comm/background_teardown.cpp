#include "comm/background_teardown.hpp"

#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <utility>

#include "comm/job_session.hpp"

namespace fb {
namespace {

thread_local bool allowed_here = false;

// Process state, like the teardown threads themselves (detached: exit must not wait on them).
struct Pending {
  std::mutex mutex;
  std::condition_variable finished;
  int running = 0;
  bool exit_hook = false;
};

Pending& pending() {
  static auto* p = new Pending;  // never destroyed: a teardown thread may outlive main()
  return *p;
}

void wait_at_exit() { (void)wait_for_background_teardowns(); }

}  // namespace

void allow_background_teardown_on_this_thread() { allowed_here = true; }

void tear_down(std::function<void()> teardown) {
  if (!allowed_here || JobSession::current() != nullptr) {
    teardown();
    return;
  }
  auto& p = pending();
  {
    const std::lock_guard lock(p.mutex);
    ++p.running;
    // Registered after the GPU runtime's own exit handlers (it was initialised long before), so it
    // runs before them: exit() never tears a context down beneath a running teardown.
    if (!std::exchange(p.exit_hook, true)) std::atexit(wait_at_exit);
  }
  std::thread([&p, teardown = std::move(teardown)] {
    teardown();
    const std::lock_guard lock(p.mutex);
    --p.running;
    p.finished.notify_all();
  }).detach();
}

bool wait_for_background_teardowns(std::chrono::milliseconds grace) {
  auto& p = pending();
  std::unique_lock lock(p.mutex);
  return p.finished.wait_for(lock, grace, [&p] { return p.running == 0; });
}

}  // namespace fb
