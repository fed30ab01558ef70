// Run as real processes with a launcher's environment (tests/cli/launch_environments.sh): joins the
// job as fabricbench's main() does - the job flags, the launcher table, the node's ranks started
// by the one process of a per-node launcher (an Indexed Job's or a PyTorchJob's pod), then the TCP
// rendezvous or the MPI plugin - and checks what every rank was told: the ranks are 0..N-1 once
// each and every rank's local rank is the one it read. Prints on every rank
//   ok rank R of N (LAUNCHER, local rank L, WIRING)
// and before the rendezvous, on rank 0 of a TCP one: "rendezvous ADDR:PORT (ORIGIN)".
// An error is fabricbench's one line and exit code.
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "comm/job_session.hpp"
#include "comm/launch_env.hpp"
#include "comm/mpi_session.hpp"
#include "comm/tcp_session.hpp"
#include "core/error.hpp"
#include "launch/node_ranks.hpp"

namespace {

fb::JobSession& join(fb::JobLauncher launcher, double timeout_s) {
  if (fb::job_wiring(launcher, fb::process_env) == fb::RankWiring::mpi_plugin) return fb::MpiSession::start();
  const auto job = fb::tcp_job_env(launcher, fb::process_env);
  if (job.rank == 0) fmt::print("rendezvous {}:{} ({})\n", job.master_addr, job.port, job.port_origin);
  std::fflush(stdout);
  return fb::TcpSession::start(job, timeout_s);
}

// Every rank's "rank local_rank" line, gathered: each rank once, in order, with the local rank it
// holds itself.
int check_ranks(fb::JobSession& s) {
  const auto all = s.bootstrap().allgather(fmt::format("{} {}", s.rank(), s.local_rank()));
  std::vector<std::string> want;
  for (int r = 0; r < s.size(); ++r)
    want.push_back(fmt::format("{} {}", r, s.local_ranks().at(static_cast<std::size_t>(r))));
  if (all != want) {
    fmt::print("FAIL: rank {}: the ranks' own words differ from the session's\n", s.rank());
    return 1;
  }
  const auto wiring = fb::job_wiring(s.launcher_kind(), fb::process_env) == fb::RankWiring::mpi_plugin
                          ? "MPI plugin"
                          : "TCP rendezvous";
  fmt::print("ok rank {} of {} ({}, local rank {}, {})\n", s.rank(), s.size(), s.launcher(), s.local_rank(),
             wiring);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv, argv + argc);
  fb::JobSession* s = nullptr;
  try {
    fb::apply_job_flags(args);
    const auto launcher = fb::choose_job_launcher(args, fb::process_env);
    if (launcher == fb::JobLauncher::none) throw fb::Error(fb::ExitCode::usage, "no launcher's variables");
    if (const int ranks = fb::node_ranks_to_start(launcher, fb::process_env); ranks > 0)
      return fb::start_node_ranks(launcher, ranks, args);
    s = &join(launcher, fb::timeout_from_args(args, 30));
  } catch (const fb::Error& e) {
    fmt::print(stderr, "fabricbench: error: {}\n", e.what());
    return static_cast<int>(e.code());
  }
  const int code = check_ranks(*s);
  s->finish();
  return code;
}
