#include "engine/doctor/doctor_stages.hpp"

#include <fmt/format.h>

#include <map>

#include "analyse/run/p2p_analysis.hpp"
#include "bench/nccl_setup.hpp"
#include "bench/p2p_bench.hpp"
#include "core/interrupt.hpp"
#include "engine/doctor/doctor_job_stages.hpp"
#include "engine/doctor/doctor_nodes_stage.hpp"
#include "engine/job/job_nccl_log.hpp"
#include "engine/plans/algos_runner.hpp"
#include "engine/plans/plan_builder.hpp"
#include "engine/plans/plan_runner.hpp"
#include "engine/plans/scale_runner.hpp"
#include "engine/pricing/estimates.hpp"
#include "launch/exiting_workers.hpp"
#include "topo/host_probe.hpp"

namespace fb {
namespace {

bool always(const DoctorContext& /*ctx*/) { return true; }
// Under a job the doctor measures the job's ranks across hosts; the stages that need every GPU in
// this process's sight (pairs, NCCL's logged probe in fresh workers, placements) run on one host.
bool on_one_host(const DoctorContext& ctx) { return ctx.job == nullptr; }
// A prolog has seconds: the host checks and the collectives stage's one short all_reduce; a passive
// check (a busy node) measures nothing.
bool beyond_prolog(const DoctorContext& ctx) { return !ctx.request.prolog && !ctx.request.passive; }
bool pairs_apply(const DoctorContext& ctx) { return on_one_host(ctx) && beyond_prolog(ctx); }
// One GPU has no interconnect: what it has on its own and local checks only (the verdicts say so).
bool several_gpus(const DoctorContext& ctx) {
  return ctx.job != nullptr ? ctx.job->size() > 1 : ctx.gpus.size() > 1;
}
bool collectives_apply(const DoctorContext& ctx) { return !ctx.request.passive && several_gpus(ctx); }
bool several_gpus_on_one_host(const DoctorContext& ctx) {
  return on_one_host(ctx) && beyond_prolog(ctx) && several_gpus(ctx);
}
bool more_than_two_gpus(const DoctorContext& ctx) {
  return several_gpus_on_one_host(ctx) && ctx.gpus.size() > 2;
}

void append_runs(StageOutput& out, Result& result) {
  for (auto& run : out.runs) result.runs.push_back(std::move(run));
}

// First (after the preflight under a job, which gathers every host's own), so that a later stage's
// failure (a lost GPU, an Xid) still finds the facts recorded.
StageOutput read_host(const DoctorContext& ctx) {
  StageOutput out;
  out.host = probe_host("/", ctx.result.topology->gpus);
  return out;
}

void merge_host(StageOutput& out, Result& result) { result.host.config = std::move(out.host); }

// Reading sysfs, NVML and the kernel log: 14 ms on one H200.
double prior_host_s(const DoctorContext& /*ctx*/) { return 0.1; }

double prior_pairs_s(const DoctorContext& ctx) {
  return estimate_p2p_s(doctor_pairs_plan(ctx), *ctx.result.topology);
}

StageOutput measure_pairs(const DoctorContext& ctx) {
  StageOutput out;
  bool stopped = false;  // Ctrl-C: the doctor ends after this stage (engine/doctor/doctor.cpp)
  out.p2p = run_p2p(
      doctor_pairs_plan(ctx), [](const std::string&) {}, interrupt_requested, stopped);
  attach_p2p_ceilings(out.p2p, *ctx.result.topology);
  return out;
}

void merge_pairs(StageOutput& out, Result& result) { result.p2p = std::move(out.p2p); }

double prior_collectives_s(const DoctorContext& ctx) {
  if (ctx.job != nullptr) return prior_job_collectives_s(ctx);
  return estimate_plan_s(build_plan(ctx.collectives, ctx.facts), ctx.prior);
}

// On one host the sweep is not cut (it is what the later stages are priced from); across hosts the
// network stage has priced it, and it is cut to fit.
StagePlan plan_collectives(const DoctorContext& ctx) {
  return ctx.job != nullptr ? plan_job_collectives(ctx) : StagePlan{};
}

StageOutput measure_collectives(const DoctorContext& ctx) {
  RunRequest request = ctx.collectives;
  if (!ctx.plan.sizes.empty()) request.sizes = ctx.plan.sizes;  // under a job: cut to the budget
  return run_collectives_plan(request, ctx);
}

void merge_collectives(StageOutput& out, Result& result) {
  if (!out.gpus.empty()) result.gpus = std::move(out.gpus);
  append_runs(out, result);
}

std::vector<int> scaling_counts(const DoctorContext& ctx) {
  std::vector<int> counts;
  for (int count = 2; count <= static_cast<int>(ctx.gpus.size()); count *= 2) counts.push_back(count);
  return counts;
}

// Scaling runs before the algorithms stage: it may use 40% of what is left.
constexpr double kScalingShare = 0.4;

StagePlan plan_scaling(const DoctorContext& ctx) {
  StagePlan plan;
  const auto& sampling = ctx.collectives.settings.sampling;
  const auto counts = scaling_counts(ctx);
  plan.scaling_bytes = fit_scaling(ctx.request.quick ? 256ULL << 20 : 1ULL << 30, counts, ctx.speed, sampling,
                                   ctx.budget_left_s * kScalingShare, plan.cuts);
  if (ctx.speed.known())
    plan.estimate_s = estimate_scaling_s(plan.scaling_bytes, counts, ctx.speed, sampling);
  return plan;
}

// As its plan would cut it at the prior speed.
double prior_scaling_s(const DoctorContext& ctx) {
  DoctorContext at_prior = ctx;
  at_prior.speed = after_other_workers(ctx.prior);
  const auto plan = plan_scaling(at_prior);
  return estimate_scaling_s(plan.scaling_bytes, scaling_counts(ctx), at_prior.speed,
                            ctx.collectives.settings.sampling);
}

StageOutput measure_scaling(const DoctorContext& ctx) {
  ScaleRequest scale;
  scale.measure = unverified_all_reduce(ctx.collectives);
  scale.measure.sizes = {ctx.plan.scaling_bytes};
  scale.measure.gpus = GpuSelection::all();
  scale.counts = scaling_counts(ctx);
  StageOutput out;
  out.runs = run_scaling(
      scale, ctx.facts, *ctx.result.topology, [](const Run&) {}, ctx.events);
  for (const auto& run : out.runs)  // a failed group fails the doctor as it fails `scale`
    if (!run.failure.empty() && out.failure.empty())
      out.failure = fmt::format("{} GPUs, {} placement: {}", run.gpus.size(), run.label, run.failure);
  return out;
}

// NCCL's default against forced algorithms and protocols, before the budget's cuts: the
// protocol switch region (512 KiB - 8 MiB, where NCCL's tuning most often errs) and the large
// sizes.
AlgosGrid algorithms_grid(const DoctorContext& ctx) {
  std::vector<std::uint64_t> sizes{512ULL << 10, 1ULL << 20, 2ULL << 20, 4ULL << 20, 8ULL << 20};
  if (ctx.request.quick) {
    sizes.insert(sizes.end(), {256ULL << 20, 1ULL << 30});
    return {sizes, {"Ring", "Tree"}, {"LL", "LL128", "Simple"}, 0, true};
  }
  for (const auto b : ctx.collectives.sizes)  // the thorough sweep's sizes above the region
    if (b > (8ULL << 20)) sizes.push_back(b);
  return {sizes, {"Ring", "Tree"}, {"LL", "LL128", "Simple"}, 0};
}

StagePlan plan_algorithms(const DoctorContext& ctx) {
  StagePlan plan;
  const auto& sampling = ctx.collectives.settings.sampling;
  plan.algos = fit_algos(algorithms_grid(ctx), ctx.speed, sampling, ctx.budget_left_s, plan.cuts);
  if (ctx.speed.known()) plan.estimate_s = estimate_algos_s(plan.algos, ctx.speed, sampling);
  return plan;
}

double prior_algorithms_s(const DoctorContext& ctx) {
  DoctorContext at_prior = ctx;
  at_prior.speed = after_other_workers(ctx.prior);
  return estimate_algos_s(plan_algorithms(at_prior).algos, at_prior.speed, ctx.collectives.settings.sampling);
}

Plan algorithms_plan(const DoctorContext& ctx, const std::vector<std::uint64_t>& sizes) {
  RunRequest a = unverified_all_reduce(ctx.collectives);
  a.sizes = sizes;
  Plan plan = build_plan(a, ctx.facts);
  attach_cpulists(plan, *ctx.result.topology);
  return plan;
}

// The sizes the algorithms stage may keep: its grid cut as the cheapest workers would leave it
// (the cuts only grow with their cost, so the stage's own plan keeps no size outside these).
StagePlan plan_choices(const DoctorContext& ctx) {
  StagePlan plan;
  FabricSpeed cheapest = ctx.speed;
  cheapest.start_s = kMinStartS;
  std::vector<DoctorCut> not_yet;  // the algorithms stage says what it cuts
  plan.algos = fit_algos(algorithms_grid(ctx), cheapest, ctx.collectives.settings.sampling, ctx.budget_left_s,
                         not_yet);
  if (ctx.speed.known()) plan.estimate_s = estimate_choices_s(plan.algos.sizes, ctx.speed);
  return plan;
}

double prior_choices_s(const DoctorContext& ctx) {
  DoctorContext at_prior = ctx;
  at_prior.speed = after_other_workers(ctx.prior);
  return estimate_choices_s(plan_choices(at_prior).algos.sizes, at_prior.speed);
}

// NCCL's logged probe, one operation per size: what the fallback finding and the default
// configuration's choices read. Its own set of workers, timed with their exit, is what the
// later stages are priced from.
StageOutput read_nccl_choices(const DoctorContext& ctx) {
  StageOutput out;
  out.log =
      probe_nccl_choices(algorithms_plan(ctx, ctx.plan.algos.sizes), "", true, ctx.events, &out.probe_points);
  wait_for_exiting_workers();
  return out;
}

void learn_start_cost(const StageOutput& out, double took_s, DoctorContext& ctx) {
  ctx.nccl_log = out.log;
  ctx.speed.start_s = probe_start_seconds(out.probe_points, took_s);
}

void learn_fabric_speed(const StageOutput& out, double /*took_s*/, DoctorContext& ctx) {
  const double start_s = ctx.speed.start_s;  // the network stage's measured set of workers, if it ran
  const bool measured = ctx.speed.known();
  ctx.speed = measure_fabric(out.runs);
  if (measured) ctx.speed.start_s = start_s;
}

StageOutput measure_algorithms(const DoctorContext& ctx) {
  const auto& grid = ctx.plan.algos;
  auto sweep = sweep_configurations(algorithms_plan(ctx, grid.sizes), grid.algos, grid.protos,
                                    AlgosSweepOptions{"", true, grid.low_latency_max_bytes, grid.one_axis},
                                    ctx.nccl_log, ctx.events);
  StageOutput out;
  out.runs = std::move(sweep.runs);
  return out;
}

// The communicator set-up NCCL logged holds for every run of this machine.
void merge_choices(StageOutput& out, Result& result) {
  for (auto& run : result.runs)
    if (run.kind == RunKind::collective && run.nccl_transports.empty()) attach_nccl_log(run, out.log);
}

}  // namespace

const std::vector<DoctorStage>& doctor_stages() {
  static const std::vector<DoctorStage> stages{
      preflight_stage(),
      {.name = "host",
       .what = "host: kernel settings, IOMMU, PCIe ACS, /dev/shm, Xid, GPU health (NVML)",
       .prior_s = prior_host_s,
       .applies = always,
       .plan = nullptr,
       .run = read_host,
       .learn = nullptr,
       .merge = merge_host},
      {.name = "pairs",
       .what = "pairs and host links: copy engine and SM copies each way, latency, GPU memory",
       .prior_s = prior_pairs_s,
       .applies = pairs_apply,
       .plan = nullptr,
       .run = measure_pairs,
       .learn = nullptr,
       .merge = merge_pairs},
      network_probe_stage(),
      nodes_stage(),
      {.name = "collectives",
       .what = "collectives: all_reduce all_gather reduce_scatter alltoall sendrecv, verified",
       .prior_s = prior_collectives_s,
       .applies = collectives_apply,
       .plan = plan_collectives,
       .run = measure_collectives,
       .learn = learn_fabric_speed,
       .merge = merge_collectives},
      {.name = "choices",
       .what = "choices: NCCL's transports, channels, algorithm and protocol per size, from its log",
       .prior_s = prior_choices_s,
       .applies = several_gpus_on_one_host,
       .plan = plan_choices,
       .run = read_nccl_choices,
       .learn = learn_start_cost,
       .merge = merge_choices},
      {.name = "scaling",
       .what = "scaling: all_reduce on growing groups, best and worst placement",
       .prior_s = prior_scaling_s,
       .applies = more_than_two_gpus,
       .plan = plan_scaling,
       .run = measure_scaling,
       .learn = nullptr,
       .merge = append_runs},
      {.name = "algorithms",
       .what = "algorithms: NCCL's choice against forced ones for all_reduce",
       .prior_s = prior_algorithms_s,
       .applies = several_gpus_on_one_host,
       .plan = plan_algorithms,
       .run = measure_algorithms,
       .learn = nullptr,
       .merge = append_runs},
  };
  return stages;
}

StageOutput run_collectives_plan(const RunRequest& request, const DoctorContext& ctx) {
  Plan plan = build_plan(request, ctx.facts);
  attach_cpulists(plan, *ctx.result.topology);
  if (ctx.job != nullptr) start_job_init_log();  // before NCCL's first communicator in this process
  StageOutput out;
  std::map<int, std::size_t> slot;  // runs appear as their first point arrives
  const auto outcome = run_plan(
      plan,
      [&](int index, const Point& p) {
        if (!slot.contains(index)) {
          slot[index] = out.runs.size();
          out.runs.push_back(make_run(plan, static_cast<std::size_t>(index)));
        }
        out.runs[slot[index]].points.push_back(p);
      },
      ctx.events);
  // Their exit (the driver reclaiming contexts and buffers) belongs to this stage: the next one
  // times its own set of workers (engine/doctor_budget: probe_start_seconds).
  wait_for_exiting_workers();
  out.gpus = outcome.gpus;
  attach_job_init_log(out.runs);
  if (!outcome.supervisor.ok) {
    out.failure = outcome.failure;
    out.code = outcome.supervisor.code;
  }
  return out;
}

// The one all_reduce request the scaling and algorithm stages share.
RunRequest unverified_all_reduce(const RunRequest& collectives) {
  RunRequest r = collectives;
  r.settings.inject_corruption = false;
  r.collectives = {"all_reduce"};
  r.settings.check = false;
  return r;
}

P2pPlan doctor_pairs_plan(const DoctorContext& ctx) {
  P2pPlan p2p;
  p2p.gpus = ctx.gpus;
  p2p.cpulists = local_cpulists(*ctx.result.topology, ctx.gpus);
  if (ctx.request.quick) {
    p2p.bytes = 64ULL << 20;
    p2p.copies_per_sample = 4;
    p2p.samples = 3;
  }
  return p2p;
}

RunRequest doctor_collectives_request(const DoctorRequest& request, const MachineFacts& facts,
                                      const std::vector<int>& gpus) {
  RunRequest m;
  m.collectives = {"all_reduce", "all_gather", "reduce_scatter", "alltoall", "sendrecv"};
  m.gpus = GpuSelection::these(gpus);
  m.settings = request.settings;  // the library, the timeout and the testing aid the user gave
  m.settings.check = true;
  if (request.prolog) {  // one verified all_reduce at the size the expectation rows start (>= 1 GiB)
    m.collectives = {"all_reduce"};
    m.sizes = {kPrologBytes};
    m.settings.sampling.max_time_s = 0.2;
    m.settings.sampling.tail_iters = 0;
  } else if (request.quick) {
    m.sizes = {1ULL << 20, 16ULL << 20, 256ULL << 20, 1ULL << 30};
    m.settings.sampling.max_time_s = 0.3;
  } else {
    m.sizes = size_sweep(1ULL << 20, largest_fitting_size(facts, gpus), 4, 0);
  }
  return m;
}

}  // namespace fb
