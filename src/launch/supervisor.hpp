#pragma once
// The launcher's watch loop: serves bootstrap exchanges between workers, forwards their
// messages, and ends the run within seconds when a worker exits, crashes, reports a fatal
// error or spends longer than the timeout on one step. Never waits on a worker forever.
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "launch/worker_handle.hpp"

namespace fb {

struct SupervisorOutcome {
  bool ok = true;
  ExitCode code = ExitCode::ok;
  std::vector<int> failed_workers;
  std::string step;    // what the failed worker was doing ("begin" label)
  std::string reason;  // one line, for the user
};

class Supervisor {
 public:
  // Called for every worker message the supervisor does not handle itself.
  using Handler = std::function<void(int worker, const nlohmann::json& message)>;

  Supervisor(std::vector<WorkerHandle> workers, double timeout_s, Handler handler);
  ~Supervisor();  // kills and reaps any child still running

  // Sends each worker its start message, then watches until all are done or one fails.
  SupervisorOutcome run(const std::vector<nlohmann::json>& start_messages);

  // Asks a running supervisor to stop, killing the workers (another rank of the job failed). Ctrl-C does
  // the same through core/interrupt.hpp: run() holds an InterruptScope.
  static void request_stop();

 private:
  struct State;
  void send_start_messages(State& s, const std::vector<nlohmann::json>& start_messages);
  void read_messages(State& s);
  void handle(State& s, std::size_t worker, const nlohmann::json& message);
  void serve_allgather(State& s, std::size_t worker, const nlohmann::json& message);
  void check_closed_channels(State& s);
  void check_timeouts(State& s) const;
  void kill_all();
  std::vector<WorkerHandle> workers_;
  double timeout_s_;
  Handler handler_;
};

}  // namespace fb
