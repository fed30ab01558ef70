#pragma once
// Bootstrap: how the worker processes of one run find each other and agree (rank/size,
// allgather, broadcast, barrier). Implementations: the launcher's hub over local sockets
// (launch/hub_bootstrap), and a job's ranks: MPI under mpirun (comm/mpi_bootstrap_plugin, loaded
// by comm/mpi_session) or rank 0's TCP exchange under torchrun and srun (comm/tcp_session).
#include <string>
#include <vector>

namespace fb {

class Bootstrap {
 public:
  virtual ~Bootstrap() = default;
  [[nodiscard]] virtual int rank() const = 0;  // this process's index
  [[nodiscard]] virtual int size() const = 0;  // number of processes
  // Every process's value, in process order.
  virtual std::vector<std::string> allgather(const std::string& mine) = 0;

  std::string broadcast(const std::string& value, int root) {
    return allgather(rank() == root ? value : std::string()).at(static_cast<size_t>(root));
  }
  void barrier() { allgather(std::string()); }
};

}  // namespace fb
