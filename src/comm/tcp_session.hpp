#pragma once
// A job started by torchrun, srun or a Kubernetes PyTorchJob, without MPI: every rank reads its
// rank and size from the launcher's variables (comm/launch_env) and connects to rank 0 over TCP
// (comm/tcp_link). Exchanges go through rank 0. Each rank has a watcher thread: on rank 0 it
// notices a rank that dies (its connection closes) or reports a failure and ends every other
// rank; on the others it ends the rank when rank 0 says so or goes away, and when a step runs
// past its --timeout.
#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "comm/job_session.hpp"
#include "comm/launch_env.hpp"
#include "comm/tcp_link.hpp"

namespace fb {

class TcpSession final : public JobSession {
 public:
  // Meets every rank within `timeout_s` and installs the session as JobSession::current().
  // Throws Error: usage for variables that disagree (WORLD_SIZE, a rank twice), environment
  // for a rank 0 that cannot be reached or ranks that never came.
  static TcpSession& start(const TcpJobEnv& job, double timeout_s);

  [[nodiscard]] Bootstrap& bootstrap() override { return exchange_; }
  [[nodiscard]] JobLauncher launcher_kind() const override { return job_.launcher; }
  void begin_step(const std::string& label, double timeout_s) override;
  void end_steps() override;
  [[nodiscard]] std::string peer_failure() const override;
  [[nodiscard]] ExitCode peer_failure_code() const override;
  void on_peer_failure(std::function<void()> callback) override;
  [[nodiscard]] std::string where_ranks_are() const override;
  [[noreturn]] void abort(ExitCode code, const std::string& why) override;
  void finish() override;

 private:
  class Exchange final : public Bootstrap {
   public:
    explicit Exchange(TcpSession& s) : s_(s) {}
    [[nodiscard]] int rank() const override { return s_.rank(); }
    [[nodiscard]] int size() const override { return s_.size(); }
    std::vector<std::string> allgather(const std::string& mine) override { return s_.allgather(mine); }

   private:
    TcpSession& s_;
  };
  struct Step {
    std::string label = "start-up";
    SteadyClock::time_point since = SteadyClock::now();
  };

  explicit TcpSession(TcpJobEnv job) : job_(std::move(job)), exchange_(*this) {}
  void rendezvous_as_root(double timeout_s);
  void rendezvous_as_peer(double timeout_s);
  void adopt_peer(std::unique_ptr<Link> link, const std::string& hello, std::vector<std::string>& hosts,
                  std::vector<int>& local_ranks);
  void refuse_all(ExitCode code, const std::string& why);
  std::vector<std::string> allgather(const std::string& mine);
  void watch_peers();
  void watch_root();
  void handle_root_frame(Frame& f);
  void handle_peer_frame(int peer, const Frame& f);
  void fail(int peer, ExitCode code, const std::string& reason, const std::string& step);
  void check_own_deadline();

  TcpJobEnv job_;
  Exchange exchange_;
  std::vector<std::unique_ptr<Link>> links_;  // rank 0: one per rank (none for itself); others: rank 0's
  mutable std::mutex mutex_;
  std::condition_variable arrived_;
  std::vector<std::deque<std::string>> inbox_;  // exchanges received, per rank
  std::vector<Step> steps_;                     // rank 0: where each rank is
  std::vector<bool> ended_;                     // rank 0: ranks that said a normal end follows
  std::string failure_;
  ExitCode failure_code_ = ExitCode::run_failed;
  std::function<void()> on_failure_;
  Step my_step_;
  std::optional<SteadyClock::time_point> deadline_;
  double step_timeout_s_ = 0;
  std::atomic<bool> ending_{false};
  std::atomic<bool> stop_{false};
  std::thread watcher_;
};

}  // namespace fb
