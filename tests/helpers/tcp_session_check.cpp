// Run as N real processes with torchrun- or Slurm-style variables (tests/cli/tcp_bootstrap.sh):
// every rank joins the TCP session the way fabricbench does and checks it.
//   tcp_session_check exchange     allgather/broadcast of odd values; prints "ok rank R of N"
//   tcp_session_check die R        rank R kills itself (SIGKILL) while the others wait in an
//                                  allgather: every rank must end, naming rank R
//   tcp_session_check groups       pairs of ranks (0,1), (2,3), ... (an odd last rank in none) each
//                                  exchange on their own (comm/group_bootstrap) several times at
//                                  different paces; prints "ok group G of rank R"
//   tcp_session_check hang R T     rank R sleeps in a step of timeout T s, the others wait in
//                                  theirs: the job must end within about T s on every rank
// The launcher and timeout come from --launcher/--timeout, as for fabricbench.
#include <fmt/format.h>
#include <signal.h>
#include <unistd.h>

#include <string>
#include <thread>

#include "comm/group_bootstrap.hpp"
#include "comm/job_session.hpp"
#include "comm/tcp_session.hpp"

namespace {

int exchange(fb::JobSession& s) {
  auto& boot = s.bootstrap();
  const int n = s.size();
  const int r = s.rank();
  int failures = 0;
  const auto expect = [&](bool ok, const std::string& what) {
    if (!ok) fmt::print("FAIL: rank {}: {}\n", r, what);
    failures += ok ? 0 : 1;
  };
  const auto value_of = [](int k) {
    return k == 1 ? std::string("x\0y", 3)
                  : std::string(static_cast<std::size_t>(k) * 1000, static_cast<char>('a' + k % 26));
  };
  const auto all = boot.allgather(value_of(r));
  expect(all.size() == static_cast<std::size_t>(n), "one value per rank");
  for (int k = 0; k < n && k < static_cast<int>(all.size()); ++k)
    expect(all[static_cast<std::size_t>(k)] == value_of(k), fmt::format("allgather value of rank {}", k));
  expect(boot.broadcast(r == n - 1 ? "from-last" : "ignored", n - 1) == "from-last",
         "broadcast from the last rank");
  expect(boot.broadcast(r == 0 ? std::string(300000, 'z') : "", 0) == std::string(300000, 'z'),
         "broadcast of 300 kB from rank 0");
  expect(s.hosts().size() == static_cast<std::size_t>(n), "every rank's host");
  boot.barrier();
  if (failures == 0) fmt::print("ok rank {} of {} ({}, local rank {})\n", r, n, s.launcher(), s.local_rank());
  return failures == 0 ? 0 : 1;
}

// Each pair exchanges 20 times on its own while the other pairs do (rank 2k+1 a little later each
// time, so that the groups drift apart), then the whole job exchanges once more.
int groups(fb::JobSession& s) {
  const int n = s.size();
  fb::RankGroups pairs;
  for (int r = 0; r + 1 < n; r += 2) pairs.push_back({r, r + 1});
  const auto group = fb::GroupBootstrap::join(s.bootstrap(), pairs, 10);
  int failures = 0;
  const auto expect = [&](bool ok, const std::string& what) {
    if (!ok) fmt::print("FAIL: rank {}: {}\n", s.rank(), what);
    failures += ok ? 0 : 1;
  };
  expect((group == nullptr) == (n % 2 == 1 && s.rank() == n - 1), "in a group unless the odd last rank");
  if (group) {
    expect(group->size() == 2 && group->rank() == s.rank() % 2, "its place in its pair");
    for (int i = 0; i < 20; ++i) {
      if (group->rank() == 1) std::this_thread::sleep_for(std::chrono::milliseconds(s.rank()));
      const auto all = group->allgather(fmt::format("{}:{}", s.rank(), i));
      const int first = s.rank() - group->rank();
      expect(
          all == std::vector<std::string>{fmt::format("{}:{}", first, i), fmt::format("{}:{}", first + 1, i)},
          fmt::format("exchange {} of its pair", i));
    }
  }
  expect(s.bootstrap().allgather("after").size() == static_cast<std::size_t>(n), "the job's exchange after");
  if (failures == 0 && group) fmt::print("ok group {} of rank {}\n", group->group(), s.rank());
  return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv, argv + argc);
  const auto launcher = fb::choose_job_launcher(args, fb::process_env);
  const double timeout = fb::timeout_from_args(args, 30);
  std::string mode = args.size() > 1 ? args[1] : "exchange";
  fb::JobSession* s = nullptr;
  try {
    if (fb::launcher_row(launcher).wiring != fb::RankWiring::tcp_rendezvous)
      throw fb::Error(fb::ExitCode::usage, "no torchrun or Slurm variables");
    s = &fb::TcpSession::start(fb::tcp_job_env(launcher, fb::process_env), timeout);
  } catch (const fb::Error& e) {
    fmt::print(stderr, "fabricbench: error: {}\n", e.what());
    return static_cast<int>(e.code());
  }
  int code = 0;
  try {
    if (mode == "exchange") {
      code = exchange(*s);
    } else if (mode == "groups") {
      code = groups(*s);
    } else {
      const int victim = std::stoi(args.at(2));
      if (s->rank() == victim) {
        s->begin_step(mode == "hang" ? "sleeping" : "dying", mode == "hang" ? std::stod(args.at(3)) : 0);
        if (mode == "die") ::kill(::getpid(), SIGKILL);
        for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
      }
      // Rank 0 leaves time-keeping to the others (as fabricbench's supervisor does).
      s->begin_step("exchange", s->rank() == 0 ? 0 : 3 * std::stod(args.size() > 3 ? args[3] : "10"));
      s->bootstrap().allgather("waiting");
      fmt::print("FAIL: rank {} left an allgather that rank {} never joined\n", s->rank(), victim);
      code = 1;
    }
  } catch (const fb::Error& e) {
    fmt::print(stderr, "fabricbench: error: rank {}: {}\n", s->rank(), e.what());
    s->abort(e.code(), e.what());
  }
  s->finish();
  return code;
}
