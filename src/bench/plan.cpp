#include "bench/plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/cpu_affinity.hpp"
#include "core/error.hpp"

namespace fb {

std::vector<PointPlan> expand_points(const RunPlan& run, const std::vector<std::uint64_t>& sizes,
                                     const std::vector<bool>& placements, int nranks) {
  const auto& spec = collective(run.collective);
  const auto elem = dtype_info(run.dtype).size;
  std::vector<PointPlan> points;
  for (const auto bytes : sizes) {
    if (size_is_dropped(run, bytes, nranks)) continue;
    const auto counts = spec.counts(bytes / elem, nranks, elem);
    for (const bool in_place : placements) {
      if (in_place && !spec.in_place_supported) continue;
      points.push_back({counts.reported_elements() * elem, counts, in_place});
    }
  }
  return points;
}

bool size_is_dropped(const RunPlan& run, std::uint64_t bytes, int nranks) {
  const auto elem = dtype_info(run.dtype).size;
  return collective(run.collective).counts(bytes / elem, nranks, elem).reported_elements() == 0;
}

BufferNeeds buffer_needs(const Plan& plan) {
  BufferNeeds needs;
  for (const auto& run : plan.runs) {
    const auto elem = dtype_info(run.dtype).size;
    for (const auto& p : run.points) {
      needs.send = std::max<std::uint64_t>(needs.send, p.counts.send * elem);
      needs.recv = std::max<std::uint64_t>(needs.recv, p.counts.recv * elem);
    }
  }
  return needs;
}

std::size_t rotation_steps(const PointPlan& p, std::size_t elem, const BufferNeeds& buffers, int iters) {
  const std::uint64_t send = p.counts.send * elem;
  const std::uint64_t recv = p.counts.recv * elem;
  const std::uint64_t stride = std::max<std::uint64_t>({send, recv, 1});
  if (send > buffers.send || recv > buffers.recv || iters < 1) return 1;
  const std::uint64_t fit = std::min((buffers.send - send) / stride, (buffers.recv - recv) / stride) + 1;
  return static_cast<std::size_t>(std::min<std::uint64_t>(fit, static_cast<std::uint64_t>(iters)));
}

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(CollectiveCounts, send, recv, param, send_inside_recv, recv_inside_send)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(PointPlan, bytes, counts, in_place)

// Data types and ops travel as their table index: both ends run the same build.
void to_json(nlohmann::json& j, const Plan& p) {
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& r : p.runs)
    runs.push_back({{"collective", r.collective},
                    {"dtype", static_cast<int>(r.dtype)},
                    {"op", static_cast<int>(r.op)},
                    {"root", r.root},
                    {"points", r.points}});
  j = {{"runs", runs},           {"gpus", p.gpus},         {"launcher", p.launcher},
       {"settings", p.settings}, {"cpulists", p.cpulists}, {"groups", p.groups}};
}

void from_json(const nlohmann::json& j, Plan& p) {
  p.runs.clear();
  for (const auto& r : j.at("runs"))
    p.runs.push_back({r.at("collective").get<std::string>(), static_cast<DType>(r.at("dtype").get<int>()),
                      static_cast<RedOp>(r.at("op").get<int>()), r.at("root").get<int>(),
                      r.at("points").get<std::vector<PointPlan>>()});
  j.at("gpus").get_to(p.gpus);
  j.at("launcher").get_to(p.launcher);  // an unknown name is an error (core/enum_names.hpp)
  j.at("settings").get_to(p.settings);
  j.at("cpulists").get_to(p.cpulists);
  p.groups = j.value("groups", std::vector<std::vector<int>>{});
}

}  // namespace fb

namespace fb {

int process_count(const Plan& plan) { return plan.launcher == LauncherKind::processes ? plan.nranks() : 1; }

LocalAssignment assignment_for(const Plan& plan, int process) {
  LocalAssignment a;
  if (plan.launcher == LauncherKind::threads) {
    a.devices = plan.gpus;
    for (int r = 0; r < plan.nranks(); ++r) a.ranks.push_back(r);
  } else {
    a.devices = {plan.gpus.at(static_cast<std::size_t>(process))};
    a.ranks = {process};
  }
  return a;
}

std::optional<std::vector<int>> worker_cpus(const Plan& plan, int process) {
  if (plan.settings.cpu_bind == CpuBind::none || plan.launcher == LauncherKind::job) return std::nullopt;
  const bool one_process = plan.launcher == LauncherKind::threads;
  std::vector<int> cpus;
  for (std::size_t g = 0; g < plan.cpulists.size(); ++g) {
    if (!one_process && g != static_cast<std::size_t>(process)) continue;
    for (const int c : parse_cpulist(plan.cpulists[g]))
      if (std::find(cpus.begin(), cpus.end(), c) == cpus.end()) cpus.push_back(c);
  }
  if (plan.settings.cpu_bind == CpuBind::core && !cpus.empty())
    cpus = {cpus[one_process ? 0 : static_cast<std::size_t>(process) % cpus.size()]};
  return cpus;
}

}  // namespace fb
