#include "engine/plans/worker.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <memory>

#include "bench/collective_driver.hpp"
#include "comm/channel.hpp"
#include "comm/job_session.hpp"
#include "core/cpu_affinity.hpp"
#include "core/environment.hpp"
#include "engine/plans/group_worker.hpp"
#include "gpu/runtime.hpp"
#include "launch/hub_bootstrap.hpp"
#include "launch/protocol.hpp"
#include "launch/worker_link.hpp"
#include "model/json_limits.hpp"
#include "model/result_json.hpp"

namespace fb {
namespace {

void bind_worker_cpus(const Plan& plan, int process, ProgressSink& sink) {
  const auto cpus = worker_cpus(plan, process);
  if (!cpus || bind_to_cpus(*cpus)) return;
  const auto i = static_cast<std::size_t>(process);
  std::string lists = fmt::format("{}", fmt::join(plan.cpulists, "; "));  // the threads launcher's
  if (plan.launcher == LauncherKind::processes) lists = i < plan.cpulists.size() ? plan.cpulists[i] : "";
  sink.emit(
      make_event(EventKind::warning,
                 fmt::format("rank {}: not bound to CPUs (its GPU's local CPUs '{}' unknown or refused)",
                             process, lists)));
}

// In a job the ranks span hosts: each describes its own GPU, and rank 0 reports them all.
void gather_gpus(const LocalAssignment& local, Bootstrap& bootstrap, ProgressSink& sink) {
  const auto props = gpu::device_props(local.devices.at(0));
  const GpuInfo mine{local.devices[0],   local.ranks.at(0),        props.name, props.pci_bus_id,
                     props.memory_bytes, props.compute_capability, host_name()};
  const auto texts = bootstrap.allgather(nlohmann::json(mine).dump());
  if (bootstrap.rank() != 0) return;
  // Each rank's GPU as rank 0 takes it: checked, and on the host of the rank that sent it.
  const JobSession* job = JobSession::current();
  std::vector<GpuInfo> all;
  for (std::size_t r = 0; r < texts.size(); ++r) {
    try {
      const auto j = parse_input_json(texts[r]);
      check_json_limits(j);
      all.push_back(j.get<GpuInfo>());
    } catch (const std::exception& e) {
      throw Error(ExitCode::run_failed, fmt::format("rank {} described its GPU wrongly: {}", r, e.what()));
    }
    all.back().rank = static_cast<int>(r);
    if (job != nullptr) all.back().host = job->hosts().at(r);
  }
  sink.gpus(all);
}

}  // namespace

std::unique_ptr<Collectives> connect_nccl(const Plan& plan, const LocalAssignment& local,
                                          Bootstrap& bootstrap) {
  auto lib = NcclLibrary::load(plan.settings.nccl_lib);
  const auto id = bootstrap.broadcast(bootstrap.rank() == 0 ? make_nccl_unique_id(*lib) : std::string(), 0);
  auto collectives = make_nccl_collectives(lib, local.devices, local.ranks, plan.nranks(), id);
  bootstrap.barrier();
  return collectives;
}

void run_worker(const Plan& plan, int process, Bootstrap& bootstrap, ProgressSink& sink,
                std::unique_ptr<Collectives>& collectives) {
  const auto local = assignment_for(plan, process);
  bind_worker_cpus(plan, process, sink);
  sink.begin("start-up: CUDA context and GPU memory check");
  if (!plan.groups.empty()) {
    if (plan.launcher == LauncherKind::job) gather_gpus(local, bootstrap, sink);
    return run_group_worker(plan, process, bootstrap, sink, collectives);
  }
  check_free_memory(plan, local);
  if (plan.launcher == LauncherKind::job) gather_gpus(local, bootstrap, sink);
  sink.begin("start-up: NCCL initialisation");
  collectives = connect_nccl(plan, local, bootstrap);
  sink.begin("start-up: buffers");
  run_collective_plan(plan, local, *collectives, bootstrap, sink);
  sink.begin("teardown");
  // A worker process destroys its communicators after it has said "done" (worker_main), then ends
  // (main.cpp). A job's rank 0 runs its share in its own process, which lives on: here and now.
  if (plan.launcher == LauncherKind::job) collectives.reset();
}

int worker_main(int fd) {
  Channel channel(fd);
  WorkerLink link(channel);
  // Outside the try block so that an error does not destroy it before the launcher hears of
  // it: tearing down a communicator whose peer died can block forever.
  std::unique_ptr<Collectives> collectives;
  try {
    const auto start = channel.receive();
    if (!start || start->at("t") != msg::start) return static_cast<int>(ExitCode::run_failed);
    const Plan plan = start->at("plan").get<Plan>();
    const int process = start->at("process").get<int>();
    if (plan.launcher == LauncherKind::job) {
      // This is the job's rank 0's in-process worker: hand the plan to the other ranks first.
      auto& session = *JobSession::current();
      session.set_plan_running(true);
      session.bootstrap().broadcast(
          job_plan_message(start->at("plan"), start->value("env", std::map<std::string, std::string>{})), 0);
      run_worker(plan, process, session.bootstrap(), link, collectives);
      session.set_plan_running(false);
    } else {
      HubBootstrap bootstrap(channel, process, start->at("nprocs").get<int>());
      run_worker(plan, process, bootstrap, link, collectives);
    }
    link.done();
    return 0;
  } catch (const Error& e) {
    link.fatal(e.code(), e.what());
    collectives.release();  // NOLINT(bugprone-unused-return-value): deliberate leak, see above
    return static_cast<int>(e.code());
  } catch (const std::exception& e) {
    link.fatal(ExitCode::run_failed, fmt::format("internal error: {}", e.what()));
    collectives.release();  // NOLINT(bugprone-unused-return-value)
    return static_cast<int>(ExitCode::run_failed);
  }
}

}  // namespace fb
