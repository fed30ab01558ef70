#include "comm/hello_desk.hpp"

#include <fmt/format.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "comm/hmac.hpp"
#include "core/error.hpp"

namespace fb {
namespace {

constexpr std::size_t kMaxPending = 256;  // connections read at once; the oldest is dropped past it
constexpr int kLoggedLines = 20;
constexpr double kProofLimitS = 10;

int ms_until(SteadyClock::time_point t) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(t - SteadyClock::now()).count();
  return static_cast<int>(std::clamp<long long>(left, 0, 100));
}

// Why a listener's answer is no proof of the secret: another frame, a broken link, or nothing in time.
std::string no_proof(const std::optional<Frame>& f, const Link& link) {
  if (f)
    return fmt::format("the process there answered with a frame '{}', not a proof of the job's secret",
                       f->type);
  if (!link.broken().empty()) return "the process there sent " + link.broken();
  return "the process there gave no proof of the job's secret in time";
}

}  // namespace

void say(const RendezvousLog& log, const std::string& line) {
  if (log)
    log(line);
  else
    fmt::print(stderr, "fabricbench: {}\n", line);
}

HelloDesk::HelloDesk(int listener, std::string key, double hello_limit_s, RendezvousLog log)
    : listener_(listener), key_(std::move(key)), hello_limit_s_(hello_limit_s), log_(std::move(log)) {}

HelloDesk::~HelloDesk() {
  if (listener_ >= 0) ::close(listener_);
}

void HelloDesk::ignore(Pending& p, const std::string& why) {
  p.done = true;
  p.link->close();
  ++ignored_;
  last_ignored_ = fmt::format("a connection from {}: {}", p.from, why);
  if (ignored_ <= kLoggedLines)
    say(log_, "rendezvous: ignored " + last_ignored_);
  else if (ignored_ == kLoggedLines + 1)
    say(log_, "rendezvous: ignoring more connections (not said one by one)");
}

void HelloDesk::accept_waiting() {
  for (int fd = accept_now(listener_); fd >= 0; fd = accept_now(listener_)) {
    if (pending_.size() >= kMaxPending)
      ignore(pending_.front(), "dropped for a newer one (too many at once)");
    std::erase_if(pending_, [](const Pending& p) { return p.done; });
    auto link = std::make_unique<Link>(fd, LinkRole::from_rank);
    const auto from = peer_address(fd);
    pending_.push_back(
        {std::move(link), from, seconds_after(SteadyClock::now(), hello_limit_s_), {}, {}, {}, false});
  }
}

void HelloDesk::on_hello(Pending& p, const Frame& f, std::vector<JoinedRank>& joined) {
  std::string why;
  auto hello = parse_hello(f.payload, why);
  if (!hello) return ignore(p, "an invalid hello (" + why + ")");
  if (key_.empty()) {
    if (!hello->nonce.empty()) {
      p.link->send(
          frame::abort,
          control_payload({ExitCode::usage,
                           "rank 0 runs without a job secret (--insecure-rendezvous) and this rank with "
                           "one: start every rank the same way",
                           ""}));
      return ignore(p, "it offers a job secret that rank 0 does not have");
    }
    p.done = true;
    return joined.push_back({std::move(*hello), std::move(p.link), p.from});
  }
  if (hello->nonce.empty())
    return ignore(
        p,
        "it did not offer to prove the job's secret (started without FABRICBENCH_JOB_SECRET, or not "
        "a fabricbench rank)");
  p.hello = f.payload;
  p.said = std::move(*hello);
  p.root_nonce = random_bytes(kNonceBytes);
  p.link->send(frame::challenge, p.root_nonce + root_proof(key_, p.hello, p.root_nonce));
}

void HelloDesk::on_frame(Pending& p, const Frame& f, std::vector<JoinedRank>& joined) {
  if (p.hello.empty()) {
    if (f.type != frame::hello) return ignore(p, fmt::format("a frame '{}' before any hello", f.type));
    return on_hello(p, f, joined);
  }
  if (f.type != frame::proof) return ignore(p, fmt::format("a frame '{}' instead of its proof", f.type));
  if (!same_secret_bytes(f.payload, rank_proof(key_, p.hello, p.root_nonce)))
    return ignore(p, fmt::format("it did not prove the job's secret (it says it is rank {} on {})",
                                 p.said.rank, p.said.host));
  p.done = true;
  joined.push_back({std::move(p.said), std::move(p.link), p.from});
}

void HelloDesk::read(Pending& p, std::vector<JoinedRank>& joined) {
  const bool open = p.link->pump();
  while (!p.done) {
    const auto f = p.link->next();
    if (!f) break;
    on_frame(p, *f, joined);
  }
  if (p.done) return;
  if (!p.link->broken().empty()) return ignore(p, p.link->broken());
  if (!open) ignore(p, "it closed the connection");
}

std::vector<JoinedRank> HelloDesk::serve(SteadyClock::time_point until) {
  std::vector<JoinedRank> joined;
  do {
    std::vector<pollfd> fds{{listener_, POLLIN, 0}};
    for (const auto& p : pending_) fds.push_back({p.link->fd(), POLLIN, 0});
    ::poll(fds.data(), fds.size(), ms_until(until));
    const auto now = SteadyClock::now();
    for (std::size_t i = 0; i < pending_.size(); ++i) {
      auto& p = pending_[i];
      if ((fds[i + 1].revents & (POLLIN | POLLHUP | POLLERR)) != 0) read(p, joined);
      if (!p.done && now >= p.until)
        ignore(p, fmt::format("no {} within {:.0f} s", p.hello.empty() ? "hello" : "proof", hello_limit_s_));
    }
    std::erase_if(pending_, [](const Pending& p) { return p.done; });
    if ((fds[0].revents & POLLIN) != 0) accept_waiting();
  } while (joined.empty() && SteadyClock::now() < until);
  return joined;
}

std::unique_ptr<Link> join_root(int fd, const std::string& key, Hello mine, SteadyClock::time_point deadline,
                                std::string& why) {
  auto link = std::make_unique<Link>(fd, LinkRole::from_root);
  mine.nonce = key.empty() ? "" : random_bytes(kNonceBytes);
  const auto hello = hello_payload(mine);
  link->send(frame::hello, hello);
  if (key.empty()) return link;
  const auto f = link->receive(std::min(deadline, seconds_after(SteadyClock::now(), kProofLimitS)));
  if (f && f->type == frame::abort) {
    const auto c = parse_control(f->payload);
    throw Error(c.code, "rank 0 refused the job: " + c.text);
  }
  if (!f || f->type != frame::challenge || f->payload.size() != kNonceBytes + kHmacBytes) {
    why = no_proof(f, *link);
    return nullptr;
  }
  const auto root_nonce = f->payload.substr(0, kNonceBytes);
  if (!same_secret_bytes(f->payload.substr(kNonceBytes), root_proof(key, hello, root_nonce))) {
    why = "the process there did not prove the job's secret";
    return nullptr;
  }
  link->send(frame::proof, rank_proof(key, hello, root_nonce));
  return link;
}

}  // namespace fb
