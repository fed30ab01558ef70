#include "comm/tcp_session.hpp"

#include <fmt/format.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "core/error.hpp"

namespace fb {
namespace {

constexpr int kWatchMs = 100;
constexpr double kSilenceGraceS = 5;  // past --timeout: a rank's own watcher says why first

double seconds_since(SteadyClock::time_point t) {
  return std::chrono::duration<double>(SteadyClock::now() - t).count();
}

}  // namespace

void TcpSession::end_process(ExitCode code) {
  if (rank() == 0 && !secret_.key_file.empty()) ::unlink(secret_.key_file.c_str());
  std::fflush(nullptr);
  std::_Exit(static_cast<int>(code));
}

std::vector<std::string> TcpSession::allgather(const std::string& mine) {
  if (rank() == 0) return allgather_as_root(mine);
  if (!links_[0]->send(frame::data, mine)) {
    // Rank 0 is gone; its last words (why the job ends) are the watcher's to print: give it time.
    std::this_thread::sleep_for(std::chrono::seconds(2));
    throw Error(ExitCode::run_failed, fmt::format("lost the connection to rank 0 ({})", hosts()[0]));
  }
  std::unique_lock lock(mutex_);
  arrived_.wait(lock, [&] { return !inbox_[0].empty(); });
  auto all = decode_strings(inbox_[0].front());
  inbox_[0].pop_front();
  if (!all || all->size() != static_cast<std::size_t>(size()))
    throw Error(ExitCode::run_failed, "rendezvous: a malformed exchange from rank 0");
  return std::move(*all);
}

int TcpSession::silent_rank(std::size_t first, SteadyClock::time_point since) const {
  const double limit = timeout_s_ + kSilenceGraceS;
  for (std::size_t r = first; r < inbox_.size(); ++r) {
    if (!inbox_[r].empty()) continue;
    const auto heard = std::max(last_heard_[r], since);
    if (std::chrono::duration<double>(SteadyClock::now() - heard).count() > limit) return static_cast<int>(r);
  }
  return -1;
}

// Rank 0 waits for every rank's part while it hears from that rank: one silent for --timeout ends the
// job, named, rather than leaving it waiting for ever.
std::vector<std::string> TcpSession::allgather_as_root(const std::string& mine) {
  std::vector<std::string> all(static_cast<std::size_t>(size()));
  all[0] = mine;
  const auto since = SteadyClock::now();
  int silent = -1;
  {
    std::unique_lock lock(mutex_);
    for (std::size_t r = 1; r < all.size() && silent < 0; ++r) {
      while (inbox_[r].empty() && failure_.empty() && (silent = silent_rank(r, since)) < 0)
        arrived_.wait_for(lock, std::chrono::milliseconds(kWatchMs));
      if (!failure_.empty()) throw Error(failure_code_, failure_);
      if (silent >= 0) break;
      all[r] = std::move(inbox_[r].front());
      inbox_[r].pop_front();
    }
  }
  if (silent >= 0) {
    fail(silent, ExitCode::run_failed,
         fmt::format(
             "said nothing for {:.0f} s while rank 0 waited for its part of an exchange (--timeout {} s)",
             timeout_s_ + kSilenceGraceS, timeout_s_),
         "");
    throw Error(peer_failure_code(), peer_failure());
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
    const auto text = control_payload({code, failure_, ""});
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

// Rank 0: what another rank sends, each frame of a type this link takes and within its cap
// (comm/tcp_link); one exchange at a time per rank; a failure's code 2, 3 or 4 only. Returns what
// the rank did wrong ("" when nothing).
std::string TcpSession::handle_peer_frame(int peer, const Frame& f) {
  const auto p = static_cast<std::size_t>(peer);
  {
    const std::lock_guard lock(mutex_);
    last_heard_[p] = SteadyClock::now();
  }
  if (f.type == frame::data) {
    {
      const std::lock_guard lock(mutex_);
      if (!inbox_[p].empty())
        return "sent a second exchange before rank 0 answered its first (not a fabricbench rank?)";
      inbox_[p].push_back(f.payload);
    }
    arrived_.notify_all();
  } else if (f.type == frame::step) {
    const std::lock_guard lock(mutex_);
    steps_[p] = {step_label(f.payload), SteadyClock::now()};
  } else if (f.type == frame::end) {
    ended_[p] = true;
  } else if (f.type == frame::fatal) {
    const auto c = parse_control(f.payload);
    fail(peer, c.code, c.text, c.step);
  } else {
    return fmt::format("sent a frame '{}' out of place (after it joined)", f.type);
  }
  return "";
}

// Rank r's frames that are complete; false when the rank broke the protocol (the job then ends).
bool TcpSession::read_peer_frames(int peer) {
  auto& link = *links_[static_cast<std::size_t>(peer)];
  std::string wrong;
  while (wrong.empty()) {
    const auto f = link.next();
    if (!f) break;
    wrong = handle_peer_frame(peer, *f);
  }
  if (wrong.empty() && !link.broken().empty()) wrong = "sent " + link.broken();
  if (wrong.empty()) return true;
  fail(peer, ExitCode::run_failed, wrong + "; ending the job", "");
  return false;
}

void TcpSession::watch_peers() {
  std::vector<bool> closed(links_.size(), false);
  closed[0] = true;
  for (std::size_t r = 1; r < links_.size(); ++r)  // frames read along with the hellos
    closed[r] = !read_peer_frames(static_cast<int>(r));
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
      if (!read_peer_frames(owner[k])) {
        closed[r] = true;
        continue;
      }
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
      if (inbox_[0].empty())
        inbox_[0].push_back(std::move(f.payload));
      else
        f.type = 0;  // a second exchange before this rank took the first: not rank 0's protocol
    }
    arrived_.notify_all();
  }
  if (f.type == 0) {
    print_error(
        fmt::format("rank {} ({}): rank 0 sent a second exchange before this rank took its first; ending",
                    rank(), host()));
    end_process(ExitCode::run_failed);
  }
  if (f.type == frame::abort) {
    const auto c = parse_control(f.payload);
    fmt::print(stderr, "fabricbench: rank {} ({}): the job ends: {}\n", rank(), host(), c.text);
    end_process(c.code);
  }
}

void TcpSession::watch_root() {
  auto& link = *links_[0];
  while (!stop_) {
    while (auto f = link.next()) handle_root_frame(*f);
    if (!link.broken().empty()) {
      print_error(fmt::format("rank {} ({}): rank 0 sent {}; ending", rank(), host(), link.broken()));
      end_process(ExitCode::run_failed);
    }
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
    const auto text = control_payload({code, why, ""});
    for (std::size_t r = 1; r < links_.size(); ++r) links_[r]->send(frame::abort, text);
  } else {
    links_[0]->send(frame::fatal, control_payload({code, why, step}));
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
