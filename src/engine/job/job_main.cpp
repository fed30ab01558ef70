#include "engine/job/job_main.hpp"

#include <fmt/format.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "comm/mpi_session.hpp"
#include "comm/tcp_session.hpp"
#include "core/error.hpp"
#include "engine/job/host_sections.hpp"
#include "engine/job/host_textfiles.hpp"
#include "engine/plans/plan_runner.hpp"
#include "engine/plans/worker.hpp"
#include "launch/supervisor.hpp"
#include "model/result_json.hpp"

namespace fb {
namespace {

// Progress of a rank other than 0: nothing to report but its events, passed on with its rank;
// each step is handed to the session, which names it if the rank fails and ends the rank when it
// runs past --timeout.
class RankProgress final : public ProgressSink {
 public:
  RankProgress(JobSession& session, double timeout_s, EventSink& events)
      : session_(session), timeout_s_(timeout_s), events_(events) {}
  void begin(const std::string& label) override {
    step_ = label;
    session_.begin_step(label, timeout_s_);
  }
  void point(int /*run*/, const Point& /*point*/) override {}
  void emit(const Event& event) override {
    Event mine = event;
    mine.rank = session_.rank();
    events_.emit(mine);
  }
  [[nodiscard]] const std::string& step() const { return step_; }

 private:
  JobSession& session_;
  double timeout_s_;
  EventSink& events_;
  std::string step_ = "start-up";
};

// Rank 0's plan as this rank runs it: its own library, and of the plan's NCCL settings only the tuning
// variables a plan may set (comm/job_session's plan_environment).
Plan own_plan(const JobPlanMessage& message, const RankOwnFlags& own) {
  Plan plan = message.plan.get<Plan>();
  plan.settings.nccl_lib = own.nccl_lib;
  plan.settings.nccl_env = plan_environment(plan.settings.nccl_env);
  return plan;
}

int follow(JobSession& session, const RankOwnFlags& own, EventSink& events) {
  for (;;) {
    const auto text = session.bootstrap().broadcast(std::string(), 0);
    if (describe_hosts_request(text)) {
      answer_describe_hosts(session, own.nccl_lib, own.command_line);
      continue;
    }
    if (const auto texts = host_textfiles_request(text)) {  // each host's own metrics file
      answer_host_textfiles(session, own.prometheus, *texts);
      continue;
    }
    const auto message = parse_job_plan_message(text);
    if (!message) return 0;
    const Plan plan = own_plan(*message, own);
    const ScopedEnv env(message->env);
    RankProgress progress(session, plan.settings.timeout_s, events);
    std::unique_ptr<Collectives> collectives;
    const auto failed = [&](EventKind kind, const char* what) {
      events.emit(make_event(kind, fmt::format("rank {} ({}) during '{}': {}", session.rank(), session.host(),
                                               progress.step(), what)));
    };
    try {
      run_worker(plan, session.rank(), session.bootstrap(), progress, collectives);
    } catch (const Error& e) {
      failed(EventKind::error, e.what());
      session.abort(e.code(), e.what());
    } catch (const std::exception& e) {
      failed(EventKind::internal_error, e.what());
      session.abort(ExitCode::run_failed, fmt::format("internal error: {}", e.what()));
    }
    session.end_steps();
  }
}

JobSession& start_session(JobLauncher launcher, double timeout_s, EventSink& events) {
  if (job_wiring(launcher, process_env) == RankWiring::mpi_plugin) return MpiSession::start();
  return TcpSession::start(tcp_job_env(launcher, process_env), timeout_s, [&events](const std::string& line) {
    events.emit(make_event(EventKind::warning, line));
  });
}

// Rank 0 after its command: the other ranks wait for a next plan; tell them there is none.
void release_other_ranks(JobSession& session, int code, EventSink& events) {
  if (session.plan_running())
    session.abort(code == 0 ? ExitCode::run_failed : static_cast<ExitCode>(code),
                  fmt::format("rank 0 ({}) ended with exit code {} while the ranks were measuring",
                              session.host(), code));
  if (const auto failure = session.peer_failure(); !failure.empty()) {
    events.emit(make_event(EventKind::error, failure));
    session.abort(code == 0 ? session.peer_failure_code() : static_cast<ExitCode>(code), failure);
  }
  session.bootstrap().broadcast(kJobNoMorePlans, 0);
}

}  // namespace

bool runs_in_job(const std::string& command) {
  return command == "run" || command == "algos" || command == "nodes" || command == "doctor" ||
         command == "topo" || command == "report" || command == "compare";
}

RankOwnFlags rank_own_flags(const std::vector<std::string>& args) {
  return {option_from_args(args, "--nccl-lib").value_or(""),
          option_from_args(args, "--prometheus").value_or(""), args};
}

int job_main(JobLauncher launcher, double timeout_s, const RankOwnFlags& own, EventSink& events,
             const std::function<int()>& front_end) {
  JobSession* session = nullptr;
  try {
    session = &start_session(launcher, timeout_s, events);
  } catch (const Error& e) {
    events.emit(make_event(EventKind::error, e.what()));
    return static_cast<int>(e.code());
  }
  int code = 0;
  try {
    if (session->rank() == 0) {
      // Another rank's failure stops rank 0's run as Ctrl-C would: it keeps what it measured.
      session->on_peer_failure([] { Supervisor::request_stop(); });
      code = front_end();
      release_other_ranks(*session, code, events);
    } else {
      code = follow(*session, own, events);
    }
  } catch (const std::exception& e) {  // a garbled hand-off: no rank may be left waiting
    events.emit(
        make_event(EventKind::internal_error, fmt::format("on rank {}: {}", session->rank(), e.what())));
    session->abort(ExitCode::run_failed, e.what());
  }
  session->finish();
  return code;
}

}  // namespace fb
