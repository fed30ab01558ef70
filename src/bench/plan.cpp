#include "bench/plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/error.hpp"

namespace fb {

std::vector<PointPlan> plan_points(const Plan& plan, const RunPlan& run) {
  const auto& spec = collective(run.collective);
  const auto elem = dtype_info(run.dtype).size;
  std::vector<PointPlan> points;
  for (const auto bytes : plan.sizes) {
    const auto counts = spec.counts(bytes / elem, plan.nranks(), elem);
    if (counts.reported_elements() == 0) continue;
    for (const bool in_place : plan.placements) {
      if (in_place && !spec.in_place_supported) continue;
      points.push_back({counts.reported_elements() * elem, counts, in_place});
    }
  }
  return points;
}

BufferNeeds buffer_needs(const Plan& plan) {
  BufferNeeds needs;
  for (const auto& run : plan.runs) {
    const auto elem = dtype_info(run.dtype).size;
    for (const auto& p : plan_points(plan, run)) {
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

std::string to_string(LauncherKind k) {
  switch (k) {
    case LauncherKind::threads:
      return "threads";
    case LauncherKind::mpi:
      return "mpi";
    case LauncherKind::processes:
      break;
  }
  return "processes";
}

std::string to_string(CpuBind b) {
  switch (b) {
    case CpuBind::numa:
      return "numa";
    case CpuBind::core:
      return "core";
    case CpuBind::none:
      break;
  }
  return "none";
}

CpuBind parse_cpu_bind(const std::string& text) {
  for (const auto b : {CpuBind::none, CpuBind::numa, CpuBind::core})
    if (to_string(b) == text) return b;
  FB_USAGE_ERROR(fmt::format("--cpu-bind '{}': expected none, numa or core", text));
}

std::string to_string(BufferAlloc a) { return a == BufferAlloc::runtime ? "runtime" : "nccl"; }

BufferAlloc parse_buffer_alloc(const std::string& text) {
  for (const auto a : {BufferAlloc::nccl, BufferAlloc::runtime})
    if (to_string(a) == text) return a;
  FB_USAGE_ERROR(fmt::format("--alloc '{}': expected nccl or runtime", text));
}

std::string to_string(BufferFill f) { return f == BufferFill::zeros ? "zeros" : "pattern"; }

BufferFill parse_buffer_fill(const std::string& text) {
  for (const auto f : {BufferFill::pattern, BufferFill::zeros})
    if (to_string(f) == text) return f;
  FB_USAGE_ERROR(fmt::format("--fill '{}': expected pattern or zeros", text));
}

void to_json(nlohmann::json& j, const Plan& p) {
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& r : p.runs)
    runs.push_back({{"collective", r.collective},
                    {"dtype", static_cast<int>(r.dtype)},
                    {"op", static_cast<int>(r.op)},
                    {"root", r.root}});
  const auto& s = p.sampling;
  j = {{"runs", runs},
       {"sizes", p.sizes},
       {"placements", p.placements},
       {"gpus", p.gpus},
       {"launcher", to_string(p.launcher)},
       {"sampling",
        {{"iters", s.iters},
         {"warmup", s.warmup},
         {"graph_launches", s.graph_launches},
         {"min_batches", s.min_batches},
         {"max_batches", s.max_batches},
         {"target_ci", s.target_ci},
         {"max_time_s", s.max_time_s},
         {"batch_target_s", s.batch_target_s},
         {"max_ops_per_batch", s.max_ops_per_batch},
         {"warmup_s", s.warmup_s},
         {"min_warmup_ops", s.min_warmup_ops}}},
       {"check", p.check},
       {"inject_corruption", p.inject_corruption},
       {"timeout_s", p.timeout_s},
       {"nccl_lib", p.nccl_lib},
       {"nccl_env", p.nccl_env},
       {"cpu_bind", to_string(p.cpu_bind)},
       {"alloc", to_string(p.alloc)},
       {"fill", to_string(p.fill)},
       {"cpulists", p.cpulists}};
}

void from_json(const nlohmann::json& j, Plan& p) {
  p.runs.clear();
  for (const auto& r : j.at("runs"))
    p.runs.push_back({r.at("collective").get<std::string>(), static_cast<DType>(r.at("dtype").get<int>()),
                      static_cast<RedOp>(r.at("op").get<int>()), r.at("root").get<int>()});
  j.at("sizes").get_to(p.sizes);
  j.at("placements").get_to(p.placements);
  j.at("gpus").get_to(p.gpus);
  const auto launcher = j.at("launcher").get<std::string>();
  p.launcher = launcher == "threads" ? LauncherKind::threads
               : launcher == "mpi"   ? LauncherKind::mpi
                                     : LauncherKind::processes;
  const auto& s = j.at("sampling");
  s.at("iters").get_to(p.sampling.iters);
  s.at("warmup").get_to(p.sampling.warmup);
  s.at("graph_launches").get_to(p.sampling.graph_launches);
  s.at("min_batches").get_to(p.sampling.min_batches);
  s.at("max_batches").get_to(p.sampling.max_batches);
  s.at("target_ci").get_to(p.sampling.target_ci);
  s.at("max_time_s").get_to(p.sampling.max_time_s);
  s.at("batch_target_s").get_to(p.sampling.batch_target_s);
  s.at("max_ops_per_batch").get_to(p.sampling.max_ops_per_batch);
  s.at("warmup_s").get_to(p.sampling.warmup_s);
  s.at("min_warmup_ops").get_to(p.sampling.min_warmup_ops);
  j.at("check").get_to(p.check);
  j.at("inject_corruption").get_to(p.inject_corruption);
  j.at("timeout_s").get_to(p.timeout_s);
  j.at("nccl_lib").get_to(p.nccl_lib);
  j.at("nccl_env").get_to(p.nccl_env);
  p.cpu_bind = parse_cpu_bind(j.at("cpu_bind").get<std::string>());
  p.alloc = parse_buffer_alloc(j.at("alloc").get<std::string>());
  p.fill = parse_buffer_fill(j.at("fill").get<std::string>());
  j.at("cpulists").get_to(p.cpulists);
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

}  // namespace fb
