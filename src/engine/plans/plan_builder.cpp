#include "engine/plans/plan_builder.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "bench/collective_spec.hpp"
#include "core/error.hpp"
#include "core/units.hpp"
#include "engine/plans/plan_runner.hpp"
#include "gpu/vendor.hpp"

namespace fb {
namespace {

void check_dtype_supported(DType t, const MachineFacts& m, const std::vector<int>& gpus) {
  const auto& info = dtype_info(t);
  if (m.nccl_version < info.min_nccl_version)
    FB_USAGE_ERROR(fmt::format("data type {} needs NCCL {}.{} or newer; the loaded NCCL is {}.{}.{}",
                               info.name, info.min_nccl_version / 10000, info.min_nccl_version % 10000 / 100,
                               m.nccl_version / 10000, m.nccl_version % 10000 / 100, m.nccl_version % 100));
  for (const int g : gpus) {
    const auto& dev = m.devices.at(static_cast<std::size_t>(g));
    if (!gpu::reduces_type_on(info.min_compute_capability, dev.compute_capability, dev.arch))
      FB_USAGE_ERROR(fmt::format("{} reduces {} only on {}; GPU {} ({}) is {}",
                                 gpu::collective_library_name(), info.name,
                                 gpu::type_floor_name(info.min_compute_capability), g, dev.name, dev.arch));
  }
}

void check_fits(const Plan& plan, const MachineFacts& m) {
  const auto needs = buffer_needs(plan);
  const auto total = needs.total_with_nccl();
  for (const int g : plan.gpus) {
    const auto& dev = m.devices.at(static_cast<std::size_t>(g));
    if (total > dev.memory_bytes)
      FB_USAGE_ERROR(
          fmt::format("the largest point needs {} per GPU (send {} + receive {} + {} for NCCL) but GPU {} "
                      "({}) has {} in all; lower -e/--maxbytes",
                      format_bytes(total), format_bytes(needs.send), format_bytes(needs.recv),
                      format_bytes(kNcclReserveBytes), g, dev.name, format_bytes(dev.memory_bytes)));
  }
}

// One run per collective x type (x op where it reduces), in the request's order.
std::vector<RunPlan> expand_runs(const RunRequest& r) {
  std::vector<RunPlan> runs;
  for (const auto& name : r.collectives) {
    const auto& spec = collective(name);
    const int root = spec.rooted ? r.root : 0;
    for (const auto t : r.dtypes) {
      if (!spec.reduces) {
        runs.push_back({name, t, RedOp::sum, root, {}});
        continue;
      }
      for (const auto op : r.ops) runs.push_back({name, t, op, root, {}});
    }
  }
  return runs;
}

void check_some_point(const Plan& plan) {
  for (const auto& run : plan.runs)
    if (!run.points.empty()) return;
  FB_USAGE_ERROR(
      fmt::format("no size in the list holds a single element per rank on {} GPUs; "
                  "raise -e/--maxbytes",
                  plan.nranks()));
}

}  // namespace

std::vector<int> resolve_gpus(const GpuSelection& selection, int available) {
  if (available <= 0) FB_USAGE_ERROR("no GPU is visible");
  std::vector<int> gpus;
  switch (selection.kind) {
    case GpuSelection::Kind::all:
      for (int i = 0; i < available; ++i) gpus.push_back(i);
      return gpus;
    case GpuSelection::Kind::first:
      if (selection.count > available)
        FB_USAGE_ERROR(fmt::format("--gpus {} asks for {} GPUs but {} {} visible", selection.count,
                                   selection.count, available, available == 1 ? "is" : "are"));
      for (int i = 0; i < selection.count; ++i) gpus.push_back(i);
      return gpus;
    case GpuSelection::Kind::ids:
      break;
  }
  for (const int g : selection.ids)
    if (g < 0 || g >= available)
      FB_USAGE_ERROR(fmt::format("--gpus names GPU {} but only GPUs 0-{} are visible", g, available - 1));
  return selection.ids;
}

std::vector<int> gpus_of_job_ranks(const RunRequest& request, const std::vector<int>& selected,
                                   const MachineFacts& machine) {
  const std::string& command = machine.job_command.empty() ? "the job's launcher" : machine.job_command;
  if (request.launcher == LauncherKind::threads)
    FB_USAGE_ERROR(fmt::format("under {} every rank drives one GPU: drop --launcher threads", command));
  if (request.settings.cpu_bind != CpuBind::none)
    FB_USAGE_ERROR(
        fmt::format("under {} the ranks are bound by {}: bind them there (mpirun --bind-to, srun "
                    "--cpu-bind) instead of with --cpu-bind",
                    command, command));
  const auto gpus_text = request.gpus.text();
  const auto& local_ranks = machine.job_local_ranks;
  std::vector<int> gpus;
  for (std::size_t r = 0; r < local_ranks.size(); ++r) {
    const auto local = static_cast<std::size_t>(local_ranks[r]);
    if (local >= selected.size())
      FB_USAGE_ERROR(fmt::format(
          "rank {} is process {} on its host, but {} GPU{} {} selected per host{}: "
          "start at most {} process{} per host",
          r, local + 1, selected.size(), selected.size() == 1 ? "" : "s", selected.size() == 1 ? "is" : "are",
          gpus_text.empty() ? "" : fmt::format(" (--gpus {})", gpus_text), selected.size(),
          selected.size() == 1 ? "" : "es"));
    gpus.push_back(selected[local]);
  }
  return gpus;
}

// Every run's points, expanded here once: the workers, the estimates and the reports read them.
Plan build_plan(const RunRequest& r, const MachineFacts& machine) {
  Plan plan;
  plan.gpus = resolve_gpus(r.gpus, static_cast<int>(machine.devices.size()));
  const bool job = !machine.job_local_ranks.empty();
  if (job) plan.gpus = gpus_of_job_ranks(r, plan.gpus, machine);
  // Only a collective with a root reads it: `run all_reduce -r 2` on 2 GPUs is not an error.
  const bool rooted = std::any_of(r.collectives.begin(), r.collectives.end(),
                                  [](const std::string& c) { return collective(c).rooted; });
  if (rooted && (r.root < 0 || r.root >= plan.nranks()))
    FB_USAGE_ERROR(fmt::format("-r/--root {} is not a rank of this run (0-{})", r.root, plan.nranks() - 1));
  for (const auto t : r.dtypes) check_dtype_supported(t, machine, plan.gpus);
  plan.runs = expand_runs(r);
  for (auto& run : plan.runs) run.points = expand_points(run, r.sizes, r.settings.placements, plan.nranks());
  plan.launcher = job ? LauncherKind::job : r.launcher;
  plan.settings = r.settings;
  check_some_point(plan);
  check_fits(plan, machine);
  return plan;
}

P2pPlan build_p2p_plan(const P2pRequest& request, int available, const Topology& topology) {
  P2pPlan plan = request.measure;
  plan.gpus = resolve_gpus(request.gpus, available);
  plan.cpulists = local_cpulists(topology, plan.gpus);
  if (!plan.host && plan.gpus.size() < 2)
    FB_USAGE_ERROR(
        "nothing to measure: one GPU selected means host<->device only, and --no-host drops those "
        "links: add GPUs or drop --no-host");
  return plan;
}

std::uint64_t largest_fitting_size(const MachineFacts& machine, const std::vector<int>& gpus) {
  std::uint64_t mem = ~0ULL;
  for (int g : gpus) mem = std::min(mem, machine.devices.at(static_cast<std::size_t>(g)).memory_bytes);
  std::uint64_t size = 1ULL << 20;
  while (size * 2 <= (8ULL << 30) && 2 * (size * 2) + kNcclReserveBytes + (2ULL << 30) < mem) size *= 2;
  return size;
}

}  // namespace fb
