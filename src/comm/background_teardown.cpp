#include "comm/background_teardown.hpp"

#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "comm/job_session.hpp"

namespace fb {
namespace {

thread_local bool allowed_here = false;

// Process state, like the teardown threads themselves (detached: exit must not wait on them).
struct Pending {
  std::mutex mutex;
  std::condition_variable finished;
  std::vector<std::function<void()>> kept;  // not begun yet
  int running = 0;
  bool exit_hook = false;
};

Pending& pending() {
  static auto* p = new Pending;  // never destroyed: a teardown thread may outlive main()
  return *p;
}

bool wait_for_running(Pending& p, std::unique_lock<std::mutex>& lock, std::chrono::milliseconds grace) {
  return p.finished.wait_for(lock, grace, [&p] { return p.running == 0; });
}

// At exit the teardowns kept for later stay so: the driver reclaims what they hold.
void wait_at_exit() {
  auto& p = pending();
  std::unique_lock lock(p.mutex);
  (void)wait_for_running(p, lock, std::chrono::seconds(10));
}

// Called with the mutex held.
void begin(Pending& p, std::function<void()> teardown) {
  ++p.running;
  // Registered after the GPU runtime's own exit handlers (it was initialised long before), so it
  // runs before them: exit() never tears a context down beneath a running teardown.
  if (!std::exchange(p.exit_hook, true)) std::atexit(wait_at_exit);
  std::thread([&p, teardown = std::move(teardown)] {
    teardown();
    const std::lock_guard lock(p.mutex);
    --p.running;
    p.finished.notify_all();
  }).detach();
}

}  // namespace

void allow_background_teardown_on_this_thread() { allowed_here = true; }

void tear_down(std::function<void()> teardown) {
  if (!allowed_here || JobSession::current() != nullptr) {
    teardown();
    return;
  }
  auto& p = pending();
  const std::lock_guard lock(p.mutex);
  p.kept.push_back(std::move(teardown));
}

bool wait_for_background_teardowns(std::chrono::milliseconds grace) {
  auto& p = pending();
  std::unique_lock lock(p.mutex);
  for (auto& teardown : std::exchange(p.kept, {})) begin(p, std::move(teardown));
  return wait_for_running(p, lock, grace);
}

}  // namespace fb
