#pragma once
// A run started by mpirun/srun: one fabricbench process per GPU, possibly on many hosts.
// MPI itself lives in the plugin libfabricbench_mpi.so (comm/mpi_plugin_api.hpp), loaded here
// only when an MPI launcher started this process.
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "comm/bootstrap.hpp"
#include "core/error.hpp"

namespace fb {

// Whether mpirun/srun started this process (Open MPI, PMI or PMIx variables).
bool launched_by_mpi();

// Each rank's index among the ranks of its host, in rank order: {"a","a","b"} -> {0,1,0}.
std::vector<int> local_ranks_of(const std::vector<std::string>& hosts);

// What MPI rank 0 broadcasts to the other ranks: each plan with the environment its workers
// need (NCCL_ALGO, NCCL_PROTO, ...; NCCL's debug-log settings stay on rank 0, which alone reads
// the log), then "done" when its command is over.
inline constexpr const char* kMpiNoMorePlans = "done";
std::string mpi_plan_message(const nlohmann::json& plan, const std::map<std::string, std::string>& env);
struct MpiPlanMessage {
  nlohmann::json plan;
  std::map<std::string, std::string> env;
};
// nullopt for kMpiNoMorePlans; throws on anything else that is not a plan message.
std::optional<MpiPlanMessage> parse_mpi_plan_message(const std::string& text);

class MpiSession {
 public:
  // Loads the plugin (next to the executable, or $FABRICBENCH_MPI_PLUGIN), initialises MPI and
  // learns every rank's host. Throws Error(environment) saying what is missing.
  static MpiSession& start();
  // The running session, or null when MPI did not start this process.
  static MpiSession* current();

  [[nodiscard]] Bootstrap& bootstrap() { return *world_; }
  [[nodiscard]] int rank() const { return world_->rank(); }
  [[nodiscard]] int size() const { return world_->size(); }
  [[nodiscard]] const std::vector<std::string>& hosts() const { return hosts_; }
  [[nodiscard]] const std::vector<int>& local_ranks() const { return local_ranks_; }

  // Whether rank 0 has handed the other ranks a plan that has not completed: until it has, they
  // are inside collectives, and the only clean way out is abort().
  void set_plan_running(bool running) { plan_running_ = running; }
  [[nodiscard]] bool plan_running() const { return plan_running_; }

  // Ends every rank of the job now (a failed rank must not leave others waiting forever).
  [[noreturn]] void abort(ExitCode code);
  void finish();

 private:
  MpiSession() = default;
  void* plugin_ = nullptr;
  Bootstrap* world_ = nullptr;
  void (*abort_)(int) = nullptr;
  void (*finish_)() = nullptr;
  std::vector<std::string> hosts_;
  std::vector<int> local_ranks_;
  bool plan_running_ = false;
};

}  // namespace fb
