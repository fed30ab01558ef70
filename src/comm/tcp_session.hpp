#pragma once
// A job started by torchrun, srun or a Kubernetes PyTorchJob, without MPI: every rank reads its
// rank and size from the launcher's variables (comm/launch_env) and connects to rank 0 over TCP
// (comm/tcp_link), where each side proves the job's secret before the other trusts it
// (comm/job_secret, comm/hello_desk; docs/security.md). Exchanges go through rank 0, one at a time
// per rank. Each rank has a watcher thread: on rank 0 it notices a rank that dies (its connection
// closes), reports a failure or sends what it may not, and ends every other rank; on the others it
// ends the rank when rank 0 says so or goes away, and when a step runs past its --timeout. Rank 0
// waits for a rank's part of an exchange while it hears from it: a rank silent for --timeout (and
// 5 s) then ends the job, named.
#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "comm/hello_desk.hpp"
#include "comm/job_secret.hpp"
#include "comm/job_session.hpp"
#include "comm/launch_env.hpp"
#include "comm/rendezvous_messages.hpp"
#include "comm/tcp_link.hpp"

namespace fb {

class TcpSession final : public JobSession {
 public:
  // Meets every rank within `timeout_s` and installs the session as JobSession::current().
  // Throws Error: usage for variables that disagree (WORLD_SIZE, a rank twice), a host name that is
  // not one, a job across hosts without a secret; environment for a rank 0 that cannot be reached
  // or proves no secret, or ranks that never came.
  // `log` takes rank 0's notes on the connections it ignored (standard error when empty).
  static TcpSession& start(const TcpJobEnv& job, double timeout_s, RendezvousLog log = {});

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

  TcpSession(TcpJobEnv job, JobSecret secret, double timeout_s, RendezvousLog log)
      : job_(std::move(job)),
        secret_(std::move(secret)),
        timeout_s_(timeout_s),
        log_(std::move(log)),
        exchange_(*this) {}
  void rendezvous_as_root(double timeout_s);
  void rendezvous_as_peer(double timeout_s);
  std::optional<Welcome> try_join(SteadyClock::time_point deadline, std::string& why);
  void adopt_peer(JoinedRank joined, std::vector<std::string>& hosts, std::vector<int>& local_ranks);
  void refuse_all(ExitCode code, const std::string& why);
  std::vector<std::string> allgather(const std::string& mine);
  std::vector<std::string> allgather_as_root(const std::string& mine);
  // Under the lock: the first rank from `first` on whose part rank 0 still waits for and that has said
  // nothing for --timeout (and a grace) since `since` or its last frame, or -1.
  [[nodiscard]] int silent_rank(std::size_t first, SteadyClock::time_point since) const;
  void watch_peers();
  void watch_root();
  void handle_root_frame(Frame& f);
  std::string handle_peer_frame(int peer, const Frame& f);
  bool read_peer_frames(int peer);
  void fail(int peer, ExitCode code, const std::string& reason, const std::string& step);
  void check_own_deadline();
  [[noreturn]] void end_process(ExitCode code);

  TcpJobEnv job_;
  JobSecret secret_;
  double timeout_s_;
  RendezvousLog log_;
  Exchange exchange_;
  std::vector<std::unique_ptr<Link>> links_;  // rank 0: one per rank (none for itself); others: rank 0's
  mutable std::mutex mutex_;
  std::condition_variable arrived_;
  std::vector<std::deque<std::string>> inbox_;       // exchanges received, per rank
  std::vector<Step> steps_;                          // rank 0: where each rank is
  std::vector<bool> ended_;                          // rank 0: ranks that said a normal end follows
  std::vector<SteadyClock::time_point> last_heard_;  // rank 0: each rank's last frame
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
