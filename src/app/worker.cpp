#include "app/worker.hpp"

#include <fmt/format.h>

#include <memory>

#include "bench/collective_driver.hpp"
#include "bench/plan.hpp"
#include "comm/channel.hpp"
#include "comm/hub_bootstrap.hpp"
#include "comm/nccl_collectives.hpp"
#include "core/cpu_affinity.hpp"
#include "launch/protocol.hpp"
#include "launch/worker_link.hpp"

namespace fb {

int worker_main(int fd) {
  Channel channel(fd);
  WorkerLink link(channel);
  // Outside the try block so that an error does not destroy it before the launcher hears of
  // it: tearing down a communicator whose peer died can block forever.
  std::unique_ptr<NcclCollectives> collectives;
  try {
    const auto start = channel.receive();
    if (!start || start->at("t") != msg::start) return static_cast<int>(ExitCode::run_failed);
    const Plan plan = start->at("plan").get<Plan>();
    const int process = start->at("process").get<int>();
    HubBootstrap bootstrap(channel, process, start->at("nprocs").get<int>());
    const auto local = assignment_for(plan, process);
    if (plan.cpu_bind != "none" && plan.launcher == LauncherKind::processes) {
      const auto i = static_cast<std::size_t>(process);
      const std::string list = i < plan.cpulists.size() ? plan.cpulists[i] : std::string();
      auto cpus = parse_cpulist(list);
      if (plan.cpu_bind == "core" && !cpus.empty()) cpus = {cpus[i % cpus.size()]};
      if (!bind_to_cpus(cpus))
        link.warn(fmt::format("rank {}: not bound to CPUs (its GPU's local CPUs '{}' unknown or refused)",
                              process, list));
    }

    link.begin("start-up: GPU memory check and NCCL initialisation");
    check_free_memory(plan, local);
    auto lib = NcclLibrary::load(plan.nccl_lib);
    const auto id =
        bootstrap.broadcast(process == 0 ? NcclCollectives::make_unique_id(*lib) : std::string(), 0);
    collectives = std::make_unique<NcclCollectives>(lib, local.devices, local.ranks, plan.nranks(), id);
    bootstrap.barrier();

    run_collective_plan(plan, local, *collectives, bootstrap, link);
    collectives.reset();
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
