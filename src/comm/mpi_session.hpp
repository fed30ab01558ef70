#pragma once
// A job started by mpirun (or srun with an MPI plugin, when forced: --launcher mpi): one of the
// JobSession implementations. MPI itself lives in the plugin libfabricbench_mpi.so
// (comm/mpi_plugin_api.hpp), loaded here only when an MPI launcher started this process.
#include <string>

#include "comm/job_session.hpp"

namespace fb {

class MpiSession final : public JobSession {
 public:
  // Loads the plugin (next to the executable, or $FABRICBENCH_MPI_PLUGIN), initialises MPI,
  // checks MPI's rank and size against the launcher's variables (check_mpi_world), learns every
  // rank's host and installs the session as JobSession::current(). Throws Error(environment)
  // saying what is missing or what disagrees.
  static MpiSession& start();

  [[nodiscard]] Bootstrap& bootstrap() override { return *world_; }
  // The MPI row the environment names (mpirun, Hydra, PMIx): the result document's run.launcher.
  [[nodiscard]] JobLauncher launcher_kind() const override { return launcher_; }
  // MPI_Abort: mpirun ends every rank (the callers have printed why).
  [[noreturn]] void abort(ExitCode code, const std::string& why) override;
  void finish() override;

 private:
  MpiSession() = default;
  JobLauncher launcher_ = JobLauncher::mpi;
  void* plugin_ = nullptr;
  Bootstrap* world_ = nullptr;
  void (*abort_)(int) = nullptr;
  void (*finish_)() = nullptr;
};

}  // namespace fb
