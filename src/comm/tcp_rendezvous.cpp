// TcpSession's start: every rank meets rank 0 (comm/tcp_session.hpp), proving the job's secret both
// ways (comm/job_secret, comm/hello_desk) before anything it says is trusted.
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <thread>

#include "comm/hello_desk.hpp"
#include "comm/hmac.hpp"
#include "comm/tcp_session.hpp"
#include "core/environment.hpp"

namespace fb {
namespace {

constexpr double kHelloLimitS = 10;  // each connection's time to say its hello and prove the secret

std::string missing_ranks(const std::vector<std::unique_ptr<Link>>& links) {
  std::vector<std::string> missing;
  for (std::size_t r = 1; r < links.size(); ++r)
    if (!links[r]) missing.push_back(std::to_string(r));
  std::string out;
  for (std::size_t i = 0; i < missing.size() && i < 16; ++i) out += (i == 0 ? "" : ",") + missing[i];
  if (missing.size() > 16) out += fmt::format(" and {} more", missing.size() - 16);
  return out;
}

// Where rank 0 listens: FABRICBENCH_RENDEZVOUS_BIND where set ("*" every address), else the
// rendezvous address itself; every address where that names only loopback ones here (an /etc/hosts
// line such as "127.0.1.1 HOST") while the ranks are on several hosts.
std::string bind_address(const TcpJobEnv& job, bool one_host, const RendezvousLog& log) {
  if (const char* bind = std::getenv("FABRICBENCH_RENDEZVOUS_BIND"); bind != nullptr && *bind != '\0')
    return std::string(bind) == "*" ? "" : bind;
  if (!one_host && names_loopback(job.master_addr)) {
    say(log, fmt::format("rendezvous: {} names only loopback addresses on rank 0's host: listening on every "
                         "address (set FABRICBENCH_RENDEZVOUS_BIND to choose one)",
                         job.master_addr));
    return "";
  }
  return job.master_addr;
}

}  // namespace

TcpSession& TcpSession::start(const TcpJobEnv& job, double timeout_s, RendezvousLog log) {
  require_host_name(job_host_name(), "this rank's host name (NCCL_HOSTID, else gethostname)");
  auto secret = job_secret(job, process_env);
  auto* s =
      new TcpSession(job, std::move(secret), timeout_s, std::move(log));  // lives until the process ends
  s->links_.resize(static_cast<std::size_t>(job.rank == 0 ? job.size : 1));
  s->inbox_.resize(static_cast<std::size_t>(job.size));
  s->steps_.resize(static_cast<std::size_t>(job.size));
  s->ended_.assign(static_cast<std::size_t>(job.size), false);
  if (job.rank == 0)
    s->rendezvous_as_root(timeout_s);
  else
    s->rendezvous_as_peer(timeout_s);
  JobSession::install(s);
  s->watcher_ = std::thread([s] { s->rank() == 0 ? s->watch_peers() : s->watch_root(); });
  return *s;
}

// Tells every rank that joined why the job ends (before rank 0 throws the same error).
void TcpSession::refuse_all(ExitCode code, const std::string& why) {
  const auto text = control_payload({code, why, ""});
  for (auto& l : links_)
    if (l) l->send(frame::abort, text);
}

// A rank that proved the job's secret (or any, without one): what it says must fit this job.
void TcpSession::adopt_peer(JoinedRank joined, std::vector<std::string>& hosts,
                            std::vector<int>& local_ranks) {
  const auto& h = joined.hello;
  std::string why;
  if (h.size != job_.size)
    why = fmt::format(
        "rank {} ({}) says the job has {} ranks, rank 0 ({}) says {}: every rank must be started "
        "with the same WORLD_SIZE/SLURM_NTASKS",
        h.rank, h.host, h.size, hosts[0], job_.size);
  else if (h.rank <= 0 || h.rank >= job_.size)
    why = fmt::format("a process on {} says it is rank {}, not a rank of this job of {} (rank 0 is on {})",
                      h.host, h.rank, job_.size, hosts[0]);
  else if (links_[static_cast<std::size_t>(h.rank)])
    why = fmt::format("rank {} joined twice (from {} and {}): two processes have the same RANK/SLURM_PROCID",
                      h.rank, hosts[static_cast<std::size_t>(h.rank)], h.host);
  if (!why.empty()) {
    joined.link->send(frame::abort, control_payload({ExitCode::usage, why, ""}));
    refuse_all(ExitCode::usage, why);
    throw Error(ExitCode::usage, "rendezvous: " + why);
  }
  const auto r = static_cast<std::size_t>(h.rank);
  hosts[r] = h.host;
  local_ranks[r] = h.local_rank;
  links_[r] = std::move(joined.link);
  last_heard_[r] = SteadyClock::now();
}

void TcpSession::rendezvous_as_root(double timeout_s) {
  const auto deadline = seconds_after(SteadyClock::now(), timeout_s);
  std::vector<std::string> hosts(static_cast<std::size_t>(job_.size));
  std::vector<int> local_ranks(static_cast<std::size_t>(job_.size), -1);
  hosts[0] = job_host_name();
  local_ranks[0] = job_.local_rank;
  last_heard_.assign(static_cast<std::size_t>(job_.size), SteadyClock::now());
  if (job_.size > 1) {
    HelloDesk desk(listen_on(bind_address(job_, job_on_one_host(job_, process_env), log_), job_.port),
                   secret_.key, std::min(kHelloLimitS, timeout_s), log_);
    for (int joined = 1; joined < job_.size;) {
      if (SteadyClock::now() >= deadline) {
        const auto why = fmt::format(
            "only {} of {} ranks reached rank 0 ({}, port {}: {}) within {} s; missing: rank {}. Check that "
            "every "
            "rank was started with the same WORLD_SIZE/SLURM_NTASKS and can reach MASTER_ADDR{}",
            joined, job_.size, hosts[0], job_.port, job_.port_origin, timeout_s, missing_ranks(links_),
            desk.ignored() == 0 ? ""
                                : fmt::format(" ({} connection(s) ignored; the last: {})", desk.ignored(),
                                              desk.last_ignored()));
        refuse_all(ExitCode::environment, why);
        throw Error(ExitCode::environment, "rendezvous: " + why);
      }
      for (auto& j : desk.serve(deadline)) {
        adopt_peer(std::move(j), hosts, local_ranks);
        ++joined;
      }
    }
  }
  const bool all_local = std::all_of(local_ranks.begin(), local_ranks.end(), [](int l) { return l >= 0; });
  if (!all_local) local_ranks.clear();
  set_world(0, hosts, local_ranks);
  const auto welcome = welcome_payload({this->hosts(), this->local_ranks()});
  for (auto& l : links_)
    if (l) l->send(frame::welcome, welcome);
}

}  // namespace fb
