#include "engine/plans/plan_runner.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdlib>

#include "comm/job_session.hpp"
#include "core/process_clock.hpp"
#include "engine/plans/worker.hpp"
#include "launch/exiting_workers.hpp"
#include "launch/protocol.hpp"
#include "model/result_json.hpp"

namespace fb {
namespace {

std::vector<WorkerHandle> start_workers(const Plan& plan, WorkerStart start) {
  // The previous plan's workers hold GPU memory until they are gone.
  if (start == WorkerStart::after_exiting) wait_for_exiting_workers();
  std::vector<WorkerHandle> workers;
  if (plan.launcher == LauncherKind::job) {  // rank 0's share, in this process as each rank's is in its own
    workers.push_back(spawn_thread(0, [](int fd) { worker_main(fd); }));
    return workers;
  }
  // One process per GPU, or one driving them all (threads). This process holds no GPU context, so
  // that it ends as soon as the results are written: a worker's exit, the driver reclaiming its
  // context, is nobody's wait (launch/exiting_workers).
  const std::string self = self_executable();
  for (int i = 0; i < process_count(plan); ++i) workers.push_back(spawn_process(i, {self}));
  return workers;
}

std::string who_failed(const Plan& plan, const SupervisorOutcome& o) {
  if (o.failed_workers.empty()) return "the run";
  std::vector<std::string> names;
  for (const int w : o.failed_workers) {
    const auto local = assignment_for(plan, w);
    if (local.ranks.size() == 1)
      names.push_back(fmt::format("rank {} (GPU {})", local.ranks[0], local.devices[0]));
    else
      names.push_back(fmt::format("the worker process of ranks 0-{}", plan.nranks() - 1));
  }
  return fmt::format("{}", fmt::join(names, ", "));
}

// In a job, another rank's failure (seen by rank 0's session) is the cause, not rank 0's stop;
// for rank 0's own failure, say where the other ranks were (the one stuck elsewhere is the suspect).
void name_the_job_failure(PlanOutcome& out) {
  const JobSession* job = JobSession::current();
  if (job == nullptr || job->rank() != 0) return;
  if (const auto peer = job->peer_failure(); !peer.empty()) {
    out.failure = peer;
    out.supervisor.code = job->peer_failure_code();
    return;
  }
  if (const auto where = job->where_ranks_are(); !where.empty()) out.failure += "; the other ranks: " + where;
}

}  // namespace

ScopedEnv::ScopedEnv(const std::map<std::string, std::string>& vars) {
  for (const auto& [k, v] : vars) {
    const char* old = std::getenv(k.c_str());
    saved_[k] = old ? std::optional<std::string>(old) : std::nullopt;
    ::setenv(k.c_str(), v.c_str(), 1);
  }
}

ScopedEnv::~ScopedEnv() {
  for (const auto& [k, v] : saved_) {
    if (v)
      ::setenv(k.c_str(), v->c_str(), 1);
    else
      ::unsetenv(k.c_str());
  }
}

Run make_run(const Plan& plan, std::size_t index) {
  const auto& rp = plan.runs.at(index);
  Run run;
  run.collective = rp.collective;
  run.dtype = std::string(dtype_info(rp.dtype).name);
  if (collective(rp.collective).reduces) run.op = std::string(redop_info(rp.op).name);
  run.root = rp.root;
  run.gpus = plan.gpus;
  const JobSession* job = JobSession::current();
  run.launcher =
      job != nullptr && plan.launcher == LauncherKind::job ? job->launcher() : to_string(plan.launcher);
  run.graph_launches = plan.settings.sampling.graph_launches;
  run.alloc = to_string(plan.settings.alloc);
  if (plan.settings.fill != BufferFill::pattern) run.fill = to_string(plan.settings.fill);
  for (const char* var : {"NCCL_ALGO", "NCCL_PROTO"}) {
    if (const auto it = plan.settings.nccl_env.find(var); it != plan.settings.nccl_env.end())
      run.forced[var] = it->second;
    else if (const char* v = std::getenv(var))
      run.forced[var] = v;
  }
  return run;
}

std::vector<std::string> local_cpulists(const Topology& topology, const std::vector<int>& gpus) {
  std::vector<std::string> out;
  for (const int g : gpus) {
    std::string cpus;
    for (const auto& tg : topology.gpus)
      if (tg.index == g) cpus = tg.cpulist;
    out.push_back(cpus);
  }
  return out;
}

void attach_cpulists(Plan& plan, const Topology& topology) {
  plan.cpulists = local_cpulists(topology, plan.gpus);
}

PlanOutcome run_plan(const Plan& plan, const PointHandler& on_point, EventSink& events, WorkerStart start) {
  const auto& env = plan.settings.nccl_env;
  std::vector<nlohmann::json> starts;
  const int nprocs = process_count(plan);
  starts.reserve(static_cast<std::size_t>(nprocs));
  for (int i = 0; i < nprocs; ++i)
    starts.push_back({{"t", msg::start}, {"plan", plan}, {"process", i}, {"nprocs", nprocs}, {"env", env}});
  PlanOutcome out;
  bool measuring = false;  // between the first point and the teardown: not start-up
  auto on_message = [&](int worker, const nlohmann::json& m) {
    const auto type = m.at("t").get<std::string>();
    if (worker == 0 && type == msg::begin) {
      const auto label = m.at("label").get<std::string>();
      const bool start_up = label.rfind("start-up", 0) == 0;
      if (label == "teardown" || start_up)
        out.startup.push_back({label, ms_since_process_start()});
      else if (!measuring)
        out.startup.push_back({"measuring, from " + label, ms_since_process_start()});
      measuring = measuring || (!start_up && label != "teardown");
    }
    if (type == msg::gpus) out.gpus = m.at("gpus").get<std::vector<GpuInfo>>();
    if (type == msg::event) events.emit(m.at("event").get<Event>());
    if (type == msg::point) on_point(m.at("run").get<int>(), m.at("point").get<Point>());
  };
  out.startup.push_back({"starting the workers", ms_since_process_start()});
  {
    const ScopedEnv scoped(env);  // inherited by the workers started below
    Supervisor supervisor(start_workers(plan, start), plan.settings.timeout_s, on_message);
    out.supervisor = supervisor.run(starts);
  }
  if (!out.supervisor.ok) {
    out.failure = fmt::format("{} {} during '{}'", who_failed(plan, out.supervisor), out.supervisor.reason,
                              out.supervisor.step);
    if (plan.launcher == LauncherKind::job) name_the_job_failure(out);
  }
  return out;
}

void end_job_if_failed(const Plan& plan, const PlanOutcome& outcome, EventSink& events) {
  JobSession* job = JobSession::current();
  if (outcome.supervisor.ok || job == nullptr || plan.launcher != LauncherKind::job) return;
  events.emit(make_event(EventKind::stage, fmt::format("ending every rank: {}", outcome.failure)));
  job->abort(outcome.supervisor.code, outcome.failure);
}

}  // namespace fb
