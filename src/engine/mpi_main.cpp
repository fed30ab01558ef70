#include "engine/mpi_main.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "comm/mpi_session.hpp"
#include "core/result_json.hpp"
#include "engine/plan_runner.hpp"
#include "engine/worker.hpp"

namespace fb {
namespace {

// Progress of a rank other than 0: nothing to report but its warnings; the current step names
// what it was doing if it fails.
class RankConsole final : public ProgressSink {
 public:
  explicit RankConsole(int rank) : rank_(rank) {}
  void begin(const std::string& label) override { step_ = label; }
  void point(int /*run*/, const Point& /*point*/) override {}
  void warn(const std::string& text) override {
    fmt::print(stderr, "fabricbench: rank {}: warning: {}\n", rank_, text);
  }
  [[nodiscard]] const std::string& step() const { return step_; }

 private:
  int rank_;
  std::string step_ = "start-up";
};

int follow(MpiSession& session) {
  for (;;) {
    const auto message = parse_mpi_plan_message(session.bootstrap().broadcast(std::string(), 0));
    if (!message) return 0;
    const Plan plan = message->plan.get<Plan>();
    const ScopedEnv env(message->env);
    RankConsole console(session.rank());
    std::unique_ptr<NcclCollectives> collectives;
    const auto host = session.hosts().at(static_cast<std::size_t>(session.rank()));
    try {
      run_worker(plan, session.rank(), session.bootstrap(), console, collectives);
    } catch (const Error& e) {
      fmt::print(stderr, "fabricbench: error: rank {} ({}) during '{}': {}\n", session.rank(), host,
                 console.step(), e.what());
      session.abort(e.code());
    } catch (const std::exception& e) {
      fmt::print(stderr, "fabricbench: internal error: rank {} ({}) during '{}': {}\n", session.rank(), host,
                 console.step(), e.what());
      session.abort(ExitCode::run_failed);
    }
  }
}

}  // namespace

bool runs_under_mpi(const std::string& command) {
  return command == "run" || command == "algos" || command == "topo" || command == "report" ||
         command == "compare";
}

int mpi_main(const std::function<int()>& front_end) {
  MpiSession* session = nullptr;
  try {
    session = &MpiSession::start();
  } catch (const Error& e) {
    fmt::print(stderr, "fabricbench: error: {}\n", e.what());
    return static_cast<int>(e.code());
  }
  int code = 0;
  try {
    if (session->rank() == 0) {
      code = front_end();
      if (session->plan_running())
        session->abort(code == 0 ? ExitCode::run_failed : static_cast<ExitCode>(code));
      session->bootstrap().broadcast(kMpiNoMorePlans, 0);  // the other ranks wait for a next plan
    } else {
      code = follow(*session);
    }
  } catch (const std::exception& e) {  // a garbled hand-off: no rank may be left waiting
    fmt::print(stderr, "fabricbench: internal error on MPI rank {}: {}\n", session->rank(), e.what());
    session->abort(ExitCode::run_failed);
  }
  session->finish();
  return code;
}

}  // namespace fb
