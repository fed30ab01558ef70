// Run under mpirun (tests/mpi/mpi_bootstrap.sh): every rank checks the MPI bootstrap against
// what the launcher set up, prints "ok rank R of N" and exits 0, or prints why and exits 1.
//   mpi_bootstrap_check            the exchanges
//   mpi_bootstrap_check abort      rank N-1 aborts while the others wait in an allgather:
//                                  the job must end (exit code 4), not hang
#include <fmt/format.h>

#include <cstdlib>
#include <string>

#include "comm/mpi_session.hpp"

namespace {

int failures = 0;

void expect(bool ok, const std::string& what) {
  if (!ok) {
    fmt::print("FAIL: {}\n", what);
    ++failures;
  }
}

}  // namespace

int main(int argc, char** argv) {
  auto& s = fb::MpiSession::start();
  auto& boot = s.bootstrap();
  const int n = s.size();
  const int r = s.rank();
  if (argc > 1 && std::string(argv[1]) == "abort") {
    if (r == n - 1) s.abort(fb::ExitCode::run_failed, "test abort");
    boot.allgather("waiting");  // never completes: the last rank is gone
    fmt::print("FAIL: rank {} left an allgather that a dead rank never joined\n", r);
    return 1;
  }
  expect(n == std::atoi(std::getenv("OMPI_COMM_WORLD_SIZE")), "size is the launcher's -np");
  expect(r == std::atoi(std::getenv("OMPI_COMM_WORLD_RANK")), "rank is the launcher's rank");
  // Values of different lengths, an empty one, and bytes that are not text.
  std::string mine(static_cast<std::size_t>(r) * 1000, static_cast<char>('a' + r % 26));
  if (r == 1) mine = std::string("x\0y", 3);
  const auto all = boot.allgather(mine);
  expect(all.size() == static_cast<std::size_t>(n), "allgather returns one value per rank");
  for (int k = 0; k < n && k < static_cast<int>(all.size()); ++k) {
    const std::string want =
        k == 1 ? std::string("x\0y", 3)
               : std::string(static_cast<std::size_t>(k) * 1000, static_cast<char>('a' + k % 26));
    expect(all[static_cast<std::size_t>(k)] == want, fmt::format("allgather value of rank {}", k));
  }
  expect(boot.broadcast(r == n - 1 ? "from-last" : "ignored", n - 1) == "from-last",
         "broadcast from the last rank");
  expect(boot.broadcast(r == 0 ? std::string(100000, 'z') : "", 0) == std::string(100000, 'z'),
         "broadcast of 100 kB from rank 0");
  // One host here: local ranks are the ranks; each rank knows every host.
  expect(s.local_ranks().size() == static_cast<std::size_t>(n) &&
             s.local_ranks()[static_cast<std::size_t>(r)] == r,
         "local rank on a single host");
  expect(fb::local_ranks_of({"a", "b", "a", "b", "a"}) == std::vector<int>({0, 0, 1, 1, 2}),
         "local ranks across hosts");
  boot.barrier();
  s.finish();
  if (failures == 0) fmt::print("ok rank {} of {}\n", r, n);
  return failures == 0 ? 0 : 1;
}
