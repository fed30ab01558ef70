// TcpSession's start on a rank other than 0: it connects to rank 0, checks rank 0's proof of the
// job's secret before it gives its own, and takes the welcome. A process at rank 0's address that
// cannot prove the secret (another program on the port, an impostor) is left, and the rank tries
// again until --timeout: it never obeys it.
#include <fmt/format.h>
#include <unistd.h>

#include <thread>

#include "comm/hmac.hpp"
#include "comm/tcp_session.hpp"
#include "core/environment.hpp"

namespace fb {
namespace {

constexpr auto kRetry = std::chrono::milliseconds(200);

}  // namespace

// One attempt: the welcome, or nullopt with `why` (the link is then closed). Throws Error(environment)
// when nothing listens by `deadline` and no earlier attempt said why; rank 0's refusal of the job as
// an Error of its code.
std::optional<Welcome> TcpSession::try_join(SteadyClock::time_point deadline, std::string& why) {
  const std::string key = secret_.key_file.empty() ? secret_.key : read_host_key(secret_.key_file);
  if (key.empty() && !secret_.key_file.empty()) {
    why = fmt::format("no key in {} (rank 0 writes it before it listens)", secret_.key_file);
    return std::nullopt;
  }
  int fd = -1;
  try {
    fd = connect_until(job_.master_addr, job_.port, deadline);
  } catch (const Error&) {
    if (why.empty()) throw;  // nothing ever listened: "cannot reach rank 0 at ..."
    return std::nullopt;
  }
  auto link = join_root(fd, key, {job_.rank, job_.size, job_.local_rank, job_host_name(), ""}, deadline, why);
  if (!link) return std::nullopt;
  const auto reply = link->receive(deadline);
  if (!reply) {
    why = link->broken().empty() ? "the process there closed the connection or said nothing before --timeout"
                                 : "the process there sent " + link->broken();
    return std::nullopt;
  }
  if (reply->type == frame::abort) {
    const auto c = parse_control(reply->payload);
    throw Error(c.code, "rank 0 refused the job: " + c.text);
  }
  auto welcome = reply->type == frame::welcome ? parse_welcome(reply->payload, job_.size, why) : std::nullopt;
  if (!welcome) {
    why = reply->type == frame::welcome ? "a malformed welcome: " + why : "a frame that is not a welcome";
    return std::nullopt;
  }
  links_[0] = std::move(link);
  return welcome;
}

void TcpSession::rendezvous_as_peer(double timeout_s) {
  const auto deadline = seconds_after(SteadyClock::now(), timeout_s);
  std::string last;
  do {
    if (auto welcome = try_join(deadline, last)) {
      set_world(job_.rank, std::move(welcome->hosts), std::move(welcome->local_ranks));
      return;
    }
    std::this_thread::sleep_for(kRetry);
  } while (SteadyClock::now() < deadline);
  if (last.starts_with("no key")) ::close(connect_until(job_.master_addr, job_.port, SteadyClock::now()));
  throw Error(ExitCode::environment,
              fmt::format("rendezvous: no rank 0 of this job at {}:{} within {} s ({}; the job's secret: {})",
                          job_.master_addr, job_.port, timeout_s, last, secret_.origin));
}

}  // namespace fb
