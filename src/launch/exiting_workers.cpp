#include "launch/exiting_workers.hpp"

#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

namespace fb {
namespace {

std::mutex exiting_mutex;
std::vector<pid_t> exiting;  // process state, like the children themselves

bool exited(pid_t pid) {
  int status = 0;
  const pid_t r = ::waitpid(pid, &status, WNOHANG);
  return r == pid || r < 0;  // < 0: not our child any more (already reaped)
}

}  // namespace

void adopt_exiting_worker(pid_t pid) {
  if (exited(pid)) return;
  const std::lock_guard lock(exiting_mutex);
  exiting.push_back(pid);
}

void wait_for_exiting_workers(double grace_s) {
  const std::lock_guard lock(exiting_mutex);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(grace_s);
  for (const pid_t pid : exiting) {
    while (!exited(pid)) {
      if (std::chrono::steady_clock::now() >= deadline) {
        ::kill(pid, SIGKILL);
        int status = 0;
        ::waitpid(pid, &status, 0);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  exiting.clear();
}

}  // namespace fb
