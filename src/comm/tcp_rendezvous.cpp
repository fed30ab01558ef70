// TcpSession's start: every rank meets rank 0 (comm/tcp_session.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "comm/tcp_session.hpp"
#include "core/environment.hpp"

namespace fb {
namespace {

std::string missing_ranks(const std::vector<std::unique_ptr<Link>>& links) {
  std::vector<std::string> missing;
  for (std::size_t r = 1; r < links.size(); ++r)
    if (!links[r]) missing.push_back(std::to_string(r));
  std::string out;
  for (std::size_t i = 0; i < missing.size() && i < 16; ++i) out += (i == 0 ? "" : ",") + missing[i];
  if (missing.size() > 16) out += fmt::format(" and {} more", missing.size() - 16);
  return out;
}

}  // namespace

TcpSession& TcpSession::start(const TcpJobEnv& job, double timeout_s) {
  auto* s = new TcpSession(job);  // lives until the process ends
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
  const auto text = nlohmann::json{{"code", static_cast<int>(code)}, {"text", why}}.dump();
  for (auto& l : links_)
    if (l) l->send(frame::abort, text);
}

void TcpSession::adopt_peer(std::unique_ptr<Link> link, const std::string& hello,
                            std::vector<std::string>& hosts, std::vector<int>& local_ranks) {
  const auto j = nlohmann::json::parse(hello, nullptr, false);
  if (j.is_discarded() || !j.contains("rank") || !j.contains("size"))
    return;  // not a fabricbench rank (a port scanner, torchrun's store client): ignored
  const int r = j.at("rank").get<int>();
  const int size = j.at("size").get<int>();
  const auto host = j.value("host", std::string("?"));
  std::string why;
  if (size != job_.size)
    why = fmt::format(
        "rank {} ({}) says the job has {} ranks, rank 0 ({}) says {}: every rank must be started "
        "with the same WORLD_SIZE/SLURM_NTASKS",
        r, host, size, hosts[0], job_.size);
  else if (r <= 0 || r >= job_.size)
    why = fmt::format("a process on {} says it is rank {}, not a rank of this job of {} (rank 0 is on {})",
                      host, r, job_.size, hosts[0]);
  else if (links_[static_cast<std::size_t>(r)])
    why = fmt::format("rank {} joined twice (from {} and {}): two processes have the same RANK/SLURM_PROCID",
                      r, hosts[static_cast<std::size_t>(r)], host);
  if (!why.empty()) {
    link->send(frame::abort, nlohmann::json{{"code", 2}, {"text", why}}.dump());
    refuse_all(ExitCode::usage, why);
    throw Error(ExitCode::usage, "rendezvous: " + why);
  }
  hosts[static_cast<std::size_t>(r)] = host;
  local_ranks[static_cast<std::size_t>(r)] = j.value("local_rank", -1);
  links_[static_cast<std::size_t>(r)] = std::move(link);
}

void TcpSession::rendezvous_as_root(double timeout_s) {
  const auto deadline = seconds_after(SteadyClock::now(), timeout_s);
  std::vector<std::string> hosts(static_cast<std::size_t>(job_.size));
  std::vector<int> local_ranks(static_cast<std::size_t>(job_.size), -1);
  hosts[0] = job_host_name();
  local_ranks[0] = job_.local_rank;
  if (job_.size > 1) {
    const Link listener(listen_on(job_.port));
    for (int joined = 1; joined < job_.size;) {
      const int fd = accept_until(listener.fd(), deadline);
      if (fd < 0) {
        const auto why = fmt::format(
            "only {} of {} ranks reached rank 0 ({}, port {}: {}) within {} s; missing: rank {}. Check that "
            "every "
            "rank was started with the same WORLD_SIZE/SLURM_NTASKS and can reach MASTER_ADDR",
            joined, job_.size, hosts[0], job_.port, job_.port_origin, timeout_s, missing_ranks(links_));
        refuse_all(ExitCode::environment, why);
        throw Error(ExitCode::environment, "rendezvous: " + why);
      }
      auto link = std::make_unique<Link>(fd);
      const auto hello = link->receive(std::min(deadline, SteadyClock::now() + std::chrono::seconds(10)));
      if (!hello || hello->type != frame::hello) continue;
      adopt_peer(std::move(link), hello->payload, hosts, local_ranks);
      joined = static_cast<int>(
                   std::count_if(links_.begin(), links_.end(), [](const auto& l) { return l != nullptr; })) +
               1;
    }
  }
  const bool all_local = std::all_of(local_ranks.begin(), local_ranks.end(), [](int l) { return l >= 0; });
  if (!all_local) local_ranks.clear();
  set_world(0, hosts, local_ranks);
  const auto welcome = nlohmann::json{{"hosts", this->hosts()}, {"local_ranks", this->local_ranks()}}.dump();
  for (auto& l : links_)
    if (l) l->send(frame::welcome, welcome);
}

void TcpSession::rendezvous_as_peer(double timeout_s) {
  const auto deadline = seconds_after(SteadyClock::now(), timeout_s);
  links_[0] = std::make_unique<Link>(connect_until(job_.master_addr, job_.port, deadline));
  links_[0]->send(frame::hello, nlohmann::json{{"rank", job_.rank},
                                               {"size", job_.size},
                                               {"host", job_host_name()},
                                               {"local_rank", job_.local_rank}}
                                    .dump());
  const auto reply = links_[0]->receive(deadline);
  if (!reply)
    throw Error(ExitCode::environment,
                fmt::format("rendezvous: rank 0 at {}:{} did not start the job within {} s (not every rank "
                            "reached it: check WORLD_SIZE/SLURM_NTASKS)",
                            job_.master_addr, job_.port, timeout_s));
  const auto j = nlohmann::json::parse(reply->payload);
  if (reply->type == frame::abort)
    throw Error(static_cast<ExitCode>(j.at("code").get<int>()),
                "rank 0 refused the job: " + j.at("text").get<std::string>());
  set_world(job_.rank, j.at("hosts").get<std::vector<std::string>>(),
            j.at("local_ranks").get<std::vector<int>>());
}

}  // namespace fb
