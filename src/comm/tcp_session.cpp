#include "comm/tcp_session.hpp"

#include <fmt/format.h>
#include <poll.h>

#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <thread>

#include "core/error.hpp"

namespace fb {
namespace {

constexpr int kWatchMs = 100;

std::string control(ExitCode code, const std::string& text, const std::string& step = {}) {
  return nlohmann::json{{"code", static_cast<int>(code)}, {"text", text}, {"step", step}}.dump();
}

double seconds_since(SteadyClock::time_point t) {
  return std::chrono::duration<double>(SteadyClock::now() - t).count();
}

[[noreturn]] void end_process(ExitCode code) {
  std::fflush(nullptr);
  std::_Exit(static_cast<int>(code));
}

}  // namespace

std::vector<std::string> TcpSession::allgather(const std::string& mine) {
  if (rank() != 0) {
    if (!links_[0]->send(frame::data, mine)) {
      // Rank 0 is gone; its last words (why the job ends) are the watcher's to print: give it time.
      std::this_thread::sleep_for(std::chrono::seconds(2));
      throw Error(ExitCode::run_failed, fmt::format("lost the connection to rank 0 ({})", hosts()[0]));
    }
    std::unique_lock lock(mutex_);
    arrived_.wait(lock, [&] { return !inbox_[0].empty(); });
    auto all = decode_strings(inbox_[0].front());
    inbox_[0].pop_front();
    if (all.size() != static_cast<std::size_t>(size()))
      throw Error(ExitCode::run_failed, "rendezvous: a short exchange");
    return all;
  }
  std::vector<std::string> all(static_cast<std::size_t>(size()));
  all[0] = mine;
  {
    std::unique_lock lock(mutex_);
    for (std::size_t r = 1; r < all.size(); ++r) {
      arrived_.wait(lock, [&] { return !inbox_[r].empty() || !failure_.empty(); });
      if (!failure_.empty()) throw Error(failure_code_, failure_);
      all[r] = std::move(inbox_[r].front());
      inbox_[r].pop_front();
    }
  }
  const auto payload = encode_strings(all);
  for (std::size_t r = 1; r < links_.size(); ++r)
    links_[r]->send(frame::data, payload);  // a lost rank: its EOF says so
  return all;
}

void TcpSession::begin_step(const std::string& label, double timeout_s) {
  {
    const std::lock_guard lock(mutex_);
    my_step_ = {label, SteadyClock::now()};
    step_timeout_s_ = timeout_s;
    deadline_.reset();
    if (timeout_s > 0) deadline_ = seconds_after(my_step_.since, timeout_s);
  }
  if (rank() != 0) links_[0]->send(frame::step, label);
}

void TcpSession::end_steps() {
  const std::lock_guard lock(mutex_);
  my_step_ = {"waiting for rank 0's next plan", SteadyClock::now()};
  deadline_.reset();
}

std::string TcpSession::peer_failure() const {
  const std::lock_guard lock(mutex_);
  return failure_;
}

ExitCode TcpSession::peer_failure_code() const {
  const std::lock_guard lock(mutex_);
  return failure_code_;
}

void TcpSession::on_peer_failure(std::function<void()> callback) {
  const std::lock_guard lock(mutex_);
  on_failure_ = std::move(callback);
}

std::string TcpSession::where_ranks_are() const {
  const std::lock_guard lock(mutex_);
  std::string out;
  for (std::size_t r = 1; r < steps_.size() && r <= 16; ++r)
    out += fmt::format("{}rank {} ({}) in '{}' for {:.0f} s", out.empty() ? "" : "; ", r, hosts()[r],
                       steps_[r].label, seconds_since(steps_[r].since));
  if (steps_.size() > 17) out += fmt::format("; {} more ranks", steps_.size() - 17);
  return out;
}

// Rank 0: the first failure of another rank ends every other rank now; rank 0 itself stops its
// run through the callback, writes what it measured and ends with abort().
void TcpSession::fail(int peer, ExitCode code, const std::string& reason, const std::string& step) {
  std::function<void()> callback;
  {
    const std::lock_guard lock(mutex_);
    if (!failure_.empty()) return;
    const auto p = static_cast<std::size_t>(peer);
    failure_ = fmt::format("rank {} ({}) {} during '{}'", peer, hosts()[p], reason,
                           step.empty() ? steps_[p].label : step);
    failure_code_ = code;
    callback = on_failure_;
    const auto text = control(code, failure_);
    for (std::size_t r = 1; r < links_.size(); ++r)
      if (r != p) links_[r]->send(frame::abort, text);
  }
  arrived_.notify_all();
  if (callback) callback();
}

void TcpSession::check_own_deadline() {
  std::string step;
  double timeout = 0;
  {
    const std::lock_guard lock(mutex_);
    if (!deadline_ || SteadyClock::now() < *deadline_) return;
    step = my_step_.label;
    timeout = step_timeout_s_;
  }
  const auto why = fmt::format("did not finish within --timeout {} s", timeout);
  print_error(fmt::format("rank {} ({}) {} during '{}'; ending the job", rank(), host(), why, step));
  abort(ExitCode::run_failed, why);
}

void TcpSession::handle_peer_frame(int peer, const Frame& f) {
  const auto p = static_cast<std::size_t>(peer);
  if (f.type == frame::data) {
    {
      const std::lock_guard lock(mutex_);
      inbox_[p].push_back(f.payload);
    }
    arrived_.notify_all();
  } else if (f.type == frame::step) {
    const std::lock_guard lock(mutex_);
    steps_[p] = {f.payload, SteadyClock::now()};
  } else if (f.type == frame::end) {
    ended_[p] = true;
  } else if (f.type == frame::fatal) {
    const auto j = nlohmann::json::parse(f.payload, nullptr, false);
    const bool ok = !j.is_discarded() && j.contains("code");
    fail(peer, ok ? static_cast<ExitCode>(j.at("code").get<int>()) : ExitCode::run_failed,
         ok ? j.value("text", std::string("failed")) : "failed", ok ? j.value("step", std::string()) : "");
  }
}

void TcpSession::watch_peers() {
  std::vector<bool> closed(links_.size(), false);
  closed[0] = true;
  for (std::size_t r = 1; r < links_.size(); ++r)  // frames read along with the hellos
    while (auto f = links_[r]->next()) handle_peer_frame(static_cast<int>(r), *f);
  while (!stop_) {
    std::vector<pollfd> fds;
    std::vector<int> owner;
    for (std::size_t r = 1; r < links_.size(); ++r) {
      if (closed[r]) continue;
      fds.push_back({links_[r]->fd(), POLLIN, 0});
      owner.push_back(static_cast<int>(r));
    }
    if (fds.empty()) return;
    ::poll(fds.data(), fds.size(), kWatchMs);
    for (std::size_t k = 0; k < fds.size(); ++k) {
      if ((fds[k].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      const auto r = static_cast<std::size_t>(owner[k]);
      const bool open = links_[r]->pump();
      while (auto f = links_[r]->next()) handle_peer_frame(owner[k], *f);
      if (open) continue;
      closed[r] = true;
      if (!ended_[r] && !ending_)
        fail(owner[k], ExitCode::run_failed, "lost its connection to rank 0 (the process died or was killed)",
             "");
    }
    check_own_deadline();
  }
}

// Rank r: what rank 0 sends. Frames read along with the welcome are handled first.
void TcpSession::handle_root_frame(Frame& f) {
  if (f.type == frame::end) ending_ = true;
  if (f.type == frame::data) {
    {
      const std::lock_guard lock(mutex_);
      inbox_[0].push_back(std::move(f.payload));
    }
    arrived_.notify_all();
  }
  if (f.type == frame::abort) {
    const auto j = nlohmann::json::parse(f.payload, nullptr, false);
    const bool ok = !j.is_discarded() && j.contains("code");
    fmt::print(stderr, "fabricbench: rank {} ({}): the job ends: {}\n", rank(), host(),
               ok ? j.value("text", std::string()) : std::string("rank 0 said so"));
    end_process(ok ? static_cast<ExitCode>(j.at("code").get<int>()) : ExitCode::run_failed);
  }
}

void TcpSession::watch_root() {
  auto& link = *links_[0];
  while (!stop_) {
    while (auto f = link.next()) handle_root_frame(*f);
    pollfd p{link.fd(), POLLIN, 0};
    if (::poll(&p, 1, kWatchMs) > 0 && !link.pump()) {
      while (auto f = link.next()) handle_root_frame(*f);
      if (ending_) return;
      std::string step;
      {
        const std::lock_guard lock(mutex_);
        step = my_step_.label;
      }
      print_error(
          fmt::format("rank {} ({}): lost the connection to rank 0 ({}) during '{}': rank 0 died or "
                      "was killed; ending",
                      rank(), host(), hosts()[0], step));
      end_process(ExitCode::run_failed);
    }
    check_own_deadline();
  }
}

void TcpSession::abort(ExitCode code, const std::string& why) {
  std::string step;
  {
    const std::lock_guard lock(mutex_);
    step = my_step_.label;
  }
  if (rank() == 0) {
    const auto text = control(code, why);
    for (std::size_t r = 1; r < links_.size(); ++r) links_[r]->send(frame::abort, text);
  } else {
    links_[0]->send(frame::fatal, control(code, why, step));
  }
  end_process(code);
}

void TcpSession::finish() {
  ending_ = true;
  for (auto& l : links_)
    if (l) l->send(frame::end, {});
  stop_ = true;
  if (watcher_.joinable()) watcher_.join();
  for (auto& l : links_)
    if (l) l->close();
}

}  // namespace fb
