#include "engine/job_main.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "comm/mpi_session.hpp"
#include "comm/tcp_session.hpp"
#include "core/error.hpp"
#include "core/result_json.hpp"
#include "engine/plan_runner.hpp"
#include "engine/worker.hpp"
#include "launch/supervisor.hpp"

namespace fb {
namespace {

// Progress of a rank other than 0: nothing to report but its warnings; each step is handed to
// the session, which names it if the rank fails and ends the rank when it runs past --timeout.
class RankConsole final : public ProgressSink {
 public:
  RankConsole(JobSession& session, double timeout_s) : session_(session), timeout_s_(timeout_s) {}
  void begin(const std::string& label) override {
    step_ = label;
    session_.begin_step(label, timeout_s_);
  }
  void point(int /*run*/, const Point& /*point*/) override {}
  void warn(const std::string& text) override {
    fmt::print(stderr, "fabricbench: rank {}: warning: {}\n", session_.rank(), text);
  }
  [[nodiscard]] const std::string& step() const { return step_; }

 private:
  JobSession& session_;
  double timeout_s_;
  std::string step_ = "start-up";
};

int follow(JobSession& session) {
  for (;;) {
    const auto message = parse_job_plan_message(session.bootstrap().broadcast(std::string(), 0));
    if (!message) return 0;
    const Plan plan = message->plan.get<Plan>();
    const ScopedEnv env(message->env);
    RankConsole console(session, plan.timeout_s);
    std::unique_ptr<Collectives> collectives;
    try {
      run_worker(plan, session.rank(), session.bootstrap(), console, collectives);
    } catch (const Error& e) {
      print_error(fmt::format("rank {} ({}) during '{}': {}", session.rank(), session.host(), console.step(),
                              e.what()));
      session.abort(e.code(), e.what());
    } catch (const std::exception& e) {
      print_error(fmt::format("rank {} ({}) during '{}': {}", session.rank(), session.host(), console.step(),
                              e.what()),
                  true);
      session.abort(ExitCode::run_failed, fmt::format("internal error: {}", e.what()));
    }
    session.end_steps();
  }
}

JobSession& start_session(JobLauncher launcher, double timeout_s) {
  if (launcher_row(launcher).wiring == RankWiring::mpi_plugin) return MpiSession::start();
  return TcpSession::start(tcp_job_env(launcher, process_env), timeout_s);
}

// Rank 0 after its command: the other ranks wait for a next plan; tell them there is none.
void release_other_ranks(JobSession& session, int code) {
  if (session.plan_running())
    session.abort(code == 0 ? ExitCode::run_failed : static_cast<ExitCode>(code),
                  fmt::format("rank 0 ({}) ended with exit code {} while the ranks were measuring",
                              session.host(), code));
  if (const auto failure = session.peer_failure(); !failure.empty()) {
    print_error(failure);
    session.abort(code == 0 ? session.peer_failure_code() : static_cast<ExitCode>(code), failure);
  }
  session.bootstrap().broadcast(kJobNoMorePlans, 0);
}

}  // namespace

bool runs_in_job(const std::string& command) {
  return command == "run" || command == "algos" || command == "topo" || command == "report" ||
         command == "compare";
}

int job_main(JobLauncher launcher, double timeout_s, const std::function<int()>& front_end) {
  JobSession* session = nullptr;
  try {
    session = &start_session(launcher, timeout_s);
  } catch (const Error& e) {
    print_error(e.what());
    return static_cast<int>(e.code());
  }
  int code = 0;
  try {
    if (session->rank() == 0) {
      // Another rank's failure stops rank 0's run as Ctrl-C would: it keeps what it measured.
      session->on_peer_failure([] { Supervisor::request_stop(); });
      code = front_end();
      release_other_ranks(*session, code);
    } else {
      code = follow(*session);
    }
  } catch (const std::exception& e) {  // a garbled hand-off: no rank may be left waiting
    print_error(fmt::format("on rank {}: {}", session->rank(), e.what()), true);
    session->abort(ExitCode::run_failed, e.what());
  }
  session->finish();
  return code;
}

}  // namespace fb
