#pragma once
// A job whose ranks an outside launcher started (mpirun, torchrun, srun, a Kubernetes
// PyTorchJob): one fabricbench process per GPU, possibly on many hosts. Rank 0 runs the command,
// the others serve it (engine/job_main). Everything above comm/ speaks only this interface;
// the implementations are MpiSession (the MPI plugin) and TcpSession (the launcher's
// environment variables and a TCP rendezvous with rank 0).
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "comm/bootstrap.hpp"
#include "comm/launch_env.hpp"
#include "core/error.hpp"

namespace fb {

// Each rank's index among the ranks of its host, in rank order: {"a","a","b"} -> {0,1,0}.
std::vector<int> local_ranks_of(const std::vector<std::string>& hosts);

// What rank 0 broadcasts to the other ranks: each plan with the environment its workers need
// (NCCL_ALGO, NCCL_PROTO: plan_environment's few tuning variables; NCCL's debug-log settings stay on
// rank 0, which alone reads the log), then "done" when its command is over. Rank 0 sends data only:
// every rank takes its paths and libraries from its own command line (docs/security.md).
inline constexpr const char* kJobNoMorePlans = "done";
// Or that each host describe itself (the doctor across hosts): every rank then joins one allgather,
// the first rank of each host with its host's section (engine/host_sections), the others with "".
inline constexpr const char* kJobDescribeHosts = "describe hosts";
std::string job_plan_message(const nlohmann::json& plan, const std::map<std::string, std::string>& env);
struct JobPlanMessage {
  nlohmann::json plan;
  std::map<std::string, std::string> env;  // plan_environment's variables only
};
// nullopt for kJobNoMorePlans; Error(run_failed) for anything else that is not a plan message
// (parsed with its nesting bounded, without nlohmann's exceptions).
std::optional<JobPlanMessage> parse_job_plan_message(const std::string& text);

// The variables a plan may set on every rank, from `env`: NCCL_ALGO, NCCL_PROTO and a few tuning
// variables of NCCL (channels, threads, buffer size), each value a short word of NCCL's syntax.
// Never a plugin, a file, a library, a debug setting or the loader's variables; those named in
// `dropped` (when given).
std::map<std::string, std::string> plan_environment(const std::map<std::string, std::string>& env,
                                                    std::vector<std::string>* dropped = nullptr);

class JobSession {
 public:
  JobSession() = default;
  virtual ~JobSession() = default;
  JobSession(const JobSession&) = delete;
  JobSession& operator=(const JobSession&) = delete;

  // The running session, or null when no outside launcher started this process.
  static JobSession* current();
  // Makes `session` the current one; it lives until the process ends.
  static void install(JobSession* session);

  [[nodiscard]] virtual Bootstrap& bootstrap() = 0;
  // Its row of the launcher table (comm/launch_env.hpp).
  [[nodiscard]] virtual JobLauncher launcher_kind() const = 0;
  // "mpi", "torchrun" or "slurm": the result document's run.launcher.
  [[nodiscard]] std::string launcher() const { return std::string(launcher_row(launcher_kind()).name); }
  // What users typed to start the job ("mpirun", "torchrun", "srun"), for messages.
  [[nodiscard]] std::string launcher_command() const {
    return std::string(launcher_row(launcher_kind()).command);
  }

  [[nodiscard]] int rank() const { return rank_; }
  [[nodiscard]] int size() const { return static_cast<int>(hosts_.size()); }
  [[nodiscard]] const std::string& host() const { return hosts_.at(static_cast<std::size_t>(rank_)); }
  [[nodiscard]] int local_rank() const { return local_ranks_.at(static_cast<std::size_t>(rank_)); }
  [[nodiscard]] const std::vector<std::string>& hosts() const { return hosts_; }
  [[nodiscard]] const std::vector<int>& local_ranks() const { return local_ranks_; }

  // Whether rank 0 has handed the other ranks a plan that has not completed: until it has, they
  // are inside collectives, and the only clean way out is abort().
  void set_plan_running(bool running) { plan_running_ = running; }
  [[nodiscard]] bool plan_running() const { return plan_running_; }

  // The step this rank is in (its failure names it); past `timeout_s` (> 0) the rank gives up
  // and ends the job. end_steps(): waiting for rank 0's next plan, which has no time limit.
  virtual void begin_step(const std::string& label, double timeout_s);
  virtual void end_steps() {}

  // On rank 0: another rank's failure, one line naming its rank, host, step and reason; empty
  // while there is none. `on_failure` is called (from another thread) when one arrives.
  [[nodiscard]] virtual std::string peer_failure() const { return {}; }
  [[nodiscard]] virtual ExitCode peer_failure_code() const { return ExitCode::run_failed; }
  // A sink: implementations keep it (by value, moved from). The base has no peers to watch.
  // NOLINTNEXTLINE(performance-unnecessary-value-param)
  virtual void on_peer_failure(std::function<void()> callback) { (void)callback; }
  // On rank 0: where every other rank is ("rank 1 (h) in 'x' for 3 s; ..."), empty if unknown.
  [[nodiscard]] virtual std::string where_ranks_are() const { return {}; }

  // Ends every rank of the job now with `code` (a failed rank must not leave others waiting
  // forever); `why` is what the other ranks print.
  [[noreturn]] virtual void abort(ExitCode code, const std::string& why) = 0;
  // The job's normal end on this rank.
  virtual void finish() = 0;

 protected:
  void set_world(int rank, std::vector<std::string> hosts, std::vector<int> local_ranks);

 private:
  int rank_ = 0;
  std::vector<std::string> hosts_;
  std::vector<int> local_ranks_;
  bool plan_running_ = false;
};

}  // namespace fb
