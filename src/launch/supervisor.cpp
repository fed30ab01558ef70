#include "launch/supervisor.hpp"

#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <optional>
#include <thread>

#include "core/interrupt.hpp"
#include "launch/exiting_workers.hpp"
#include "launch/protocol.hpp"

namespace fb {
namespace {

using Clock = std::chrono::steady_clock;
std::atomic<bool> g_stop_requested{false};

constexpr int kPollMs = 50;

struct WorkerState {
  std::string step = "start-up";
  Clock::time_point since = Clock::now();
  bool done = false;
  bool closed = false;
};

std::string describe_exit(int status) {
  if (WIFEXITED(status)) return fmt::format("exited with status {}", WEXITSTATUS(status));
  if (WIFSIGNALED(status))
    return fmt::format("was killed by signal {} ({})", WTERMSIG(status), ::strsignal(WTERMSIG(status)));
  return "stopped";
}

// Waits up to `grace` for the child to exit; returns its status, or nullopt if it is still running.
std::optional<int> reap(pid_t pid, Clock::duration grace) {
  const auto deadline = Clock::now() + grace;
  for (;;) {
    int status = 0;
    const pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) return status;
    if (r < 0) return std::nullopt;
    if (Clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace

struct Supervisor::State {
  std::vector<WorkerState> workers;
  std::vector<std::optional<std::string>> contributions;
  SupervisorOutcome outcome;

  void fail(ExitCode code, std::vector<int> who, std::string step, std::string reason) {
    if (!outcome.ok) return;  // keep the first cause
    outcome = {false, code, std::move(who), std::move(step), std::move(reason)};
  }
};

void Supervisor::request_stop() { g_stop_requested = true; }

Supervisor::Supervisor(std::vector<WorkerHandle> workers, double timeout_s, Handler handler)
    : workers_(std::move(workers)), timeout_s_(timeout_s), handler_(std::move(handler)) {}

Supervisor::~Supervisor() { kill_all(); }

void Supervisor::kill_all() {
  for (auto& w : workers_) {
    if (w.pid <= 0) continue;
    ::kill(w.pid, SIGKILL);
    int status = 0;
    ::waitpid(w.pid, &status, 0);
    w.pid = -1;
  }
}

SupervisorOutcome Supervisor::run(const std::vector<nlohmann::json>& start_messages) {
  const InterruptScope ctrl_c;  // a signal now stops the workers, keeping what they measured
  State s;
  s.workers.resize(workers_.size());
  s.contributions.resize(workers_.size());
  send_start_messages(s, start_messages);
  while (s.outcome.ok) {
    if (g_stop_requested || interrupt_requested()) {
      s.fail(ExitCode::run_failed, {}, s.workers.empty() ? "" : s.workers[0].step, "interrupted");
      break;
    }
    read_messages(s);
    check_closed_channels(s);
    check_timeouts(s);
    if (std::all_of(s.workers.begin(), s.workers.end(), [](const WorkerState& w) { return w.done; })) break;
  }
  if (s.outcome.ok) {
    // Every worker said done: let them exit on their own (launch/exiting_workers.hpp).
    for (auto& w : workers_) {
      if (w.pid > 0) adopt_exiting_worker(w.pid);
      w.pid = -1;
    }
  }
  kill_all();
  return s.outcome;
}

void Supervisor::send_start_messages(State& s, const std::vector<nlohmann::json>& start_messages) {
  for (std::size_t i = 0; i < workers_.size(); ++i) {
    try {
      workers_[i].channel->send(start_messages.at(i));
    } catch (const Error&) {
      s.workers[i].closed = true;  // reported by check_closed_channels as a worker that went away
    }
  }
}

// Waits up to kPollMs for any open channel, then handles every complete message that came in.
void Supervisor::read_messages(State& s) {
  std::vector<pollfd> fds;
  std::vector<std::size_t> owner;
  for (std::size_t i = 0; i < workers_.size(); ++i) {
    if (s.workers[i].closed) continue;
    fds.push_back({workers_[i].channel->fd(), POLLIN, 0});
    owner.push_back(i);
  }
  if (!fds.empty()) ::poll(fds.data(), fds.size(), kPollMs);
  for (std::size_t k = 0; k < fds.size(); ++k) {
    if ((fds[k].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
    const auto i = owner[k];
    const bool open = workers_[i].channel->pump();
    while (auto m = workers_[i].channel->next()) handle(s, i, *m);
    if (!open) s.workers[i].closed = true;
  }
}

void Supervisor::handle(State& s, std::size_t i, const nlohmann::json& m) {
  const auto type = m.at("t").get<std::string>();
  auto& w = s.workers[i];
  if (type == msg::allgather) {
    serve_allgather(s, i, m);
  } else if (type == msg::begin) {
    w.step = m.at("label").get<std::string>();
    w.since = Clock::now();
    handler_(static_cast<int>(i), m);  // the caller may time the steps (run --verbose)
  } else if (type == msg::fatal) {
    s.fail(static_cast<ExitCode>(m.at("code").get<int>()), {static_cast<int>(i)}, w.step,
           m.at("text").get<std::string>());
  } else if (type == msg::done) {
    w.done = true;
  } else {
    handler_(static_cast<int>(i), m);
  }
}

// Keeps worker i's contribution; once every worker has given one, sends all of them to all.
void Supervisor::serve_allgather(State& s, std::size_t i, const nlohmann::json& m) {
  s.contributions[i] = m.at("d").get<std::string>();
  for (const auto& c : s.contributions)
    if (!c) return;
  std::vector<std::string> gathered;
  gathered.reserve(s.contributions.size());
  for (auto& c : s.contributions) gathered.push_back(*std::exchange(c, std::nullopt));
  const nlohmann::json reply{{"t", msg::allgather}, {"all", gathered}};
  for (auto& other : workers_) {
    try {
      other.channel->send(reply);
    } catch (const Error&) {
      // A worker that went away is reported when its channel closes.
    }
  }
}

// A worker whose channel closed before it said "done" has died (or was never started).
void Supervisor::check_closed_channels(State& s) {
  for (std::size_t i = 0; i < workers_.size() && s.outcome.ok; ++i) {
    const auto& w = s.workers[i];
    if (!w.closed || w.done) continue;
    std::string how = "ended without finishing";
    if (workers_[i].pid > 0) {
      if (const auto status = reap(workers_[i].pid, std::chrono::seconds(2))) {
        how = describe_exit(*status);
        workers_[i].pid = -1;
      } else {
        how = "closed its channel";
      }
    }
    s.fail(ExitCode::run_failed, {static_cast<int>(i)}, w.step, how);
  }
}

// A step that runs past the timeout means a hang (or a much too slow link).
void Supervisor::check_timeouts(State& s) const {
  std::vector<int> late;
  std::string late_step;
  for (std::size_t i = 0; i < s.workers.size(); ++i) {
    const auto& w = s.workers[i];
    if (w.done || w.closed) continue;
    if (std::chrono::duration<double>(Clock::now() - w.since).count() > timeout_s_) {
      late.push_back(static_cast<int>(i));
      late_step = w.step;
    }
  }
  if (!late.empty())
    s.fail(ExitCode::run_failed, late, late_step, fmt::format("{} {} s", kRanPastTimeout, timeout_s_));
}

}  // namespace fb
