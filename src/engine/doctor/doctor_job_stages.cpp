#include "engine/doctor/doctor_job_stages.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/units.hpp"
#include "engine/job/host_sections.hpp"
#include "engine/plans/plan_builder.hpp"
#include "engine/pricing/estimates.hpp"

namespace fb {
namespace {

// Under a job the doctor compared the hosts before it opened the machine (engine/doctor).
bool preflight_made(const DoctorContext& ctx) { return ctx.preflight != nullptr; }

}  // namespace

bool measures_network(const DoctorContext& ctx) {
  return ctx.job != nullptr && ctx.job->size() > 1 && !ctx.request.prolog && !ctx.request.passive;
}

namespace {

// Every host as the preflight described it, before the machine was opened (engine/doctor: a job it
// refused has ended there).
StageOutput run_preflight(const DoctorContext& ctx) {
  StageOutput out;
  out.hosts = ctx.preflight->hosts;
  out.gpus = ranks_gpus(out.hosts);
  return out;
}

void merge_preflight(StageOutput& out, Result& result) {
  result.hosts = std::move(out.hosts);
  if (!out.gpus.empty()) result.gpus = std::move(out.gpus);
}

double prior_preflight_s(const DoctorContext& /*ctx*/) { return kPreflightPriorS; }

// Two sizes, each a short window: the larger gives the network's busbw, the smaller its latency.
RunRequest probe_request(const DoctorContext& ctx) {
  RunRequest r = unverified_all_reduce(ctx.collectives);
  r.sizes = {1ULL << 20, 16ULL << 20};
  r.settings.sampling.max_time_s = 0.1;
  r.settings.sampling.tail_iters = 0;
  return r;
}

double prior_probe_s(const DoctorContext& ctx) {
  return estimate_plan_s(build_plan(probe_request(ctx), ctx.facts), ctx.prior);
}

StageOutput probe_network(const DoctorContext& ctx) { return run_collectives_plan(probe_request(ctx), ctx); }

// The speed and the cost of a set of workers over the network, which the later stages are cut by.
void learn_network(const StageOutput& out, double took_s, DoctorContext& ctx) {
  ctx.speed = measure_fabric(out.runs);
  std::vector<Point> points;
  for (const auto& run : out.runs) points.insert(points.end(), run.points.begin(), run.points.end());
  ctx.speed.start_s = probe_start_seconds(points, took_s);
}

void merge_nothing(StageOutput& /*out*/, Result& /*result*/) {}  // its points price; they are not the sweep

}  // namespace

StagePlan plan_job_collectives(const DoctorContext& ctx) {
  StagePlan plan;
  plan.sizes = ctx.collectives.sizes;
  if (!ctx.speed.known()) return plan;
  // The nodes stage ran before (pairs before sweeps): the sweep takes what it left, and is cut first.
  const double budget = ctx.budget_left_s;
  RunRequest request = ctx.collectives;
  const auto estimate = [&] {
    request.sizes = plan.sizes;
    return estimate_plan_s(build_plan(request, ctx.facts), ctx.speed);
  };
  std::sort(plan.sizes.begin(), plan.sizes.end());
  plan.estimate_s = estimate();
  while (plan.estimate_s > budget && plan.sizes.size() > 1) {
    plan.cuts.push_back({"collectives", fmt::format("{} points", format_bytes(plan.sizes.back())),
                         budget_reason(plan.estimate_s, ctx.speed, budget)});
    plan.sizes.pop_back();
    plan.estimate_s = estimate();
  }
  return plan;
}

double least_job_collectives_s(const DoctorContext& ctx) {
  RunRequest request = ctx.collectives;
  if (request.sizes.empty()) return 0;
  request.sizes = {*std::min_element(request.sizes.begin(), request.sizes.end())};
  return estimate_plan_s(build_plan(request, ctx.facts), ctx.speed.known() ? ctx.speed : ctx.prior);
}

double prior_job_collectives_s(const DoctorContext& ctx) {
  DoctorContext at_prior = ctx;
  at_prior.speed = ctx.speed.known() ? ctx.speed : ctx.prior;
  return plan_job_collectives(at_prior).estimate_s;
}

DoctorStage preflight_stage() {
  return {.name = "preflight",
          .what =
              "preflight: every host's NCCL, driver, NCCL_* settings, GPUs, NICs and NET plugin compared "
              "before any collective",
          .prior_s = prior_preflight_s,
          .applies = preflight_made,
          .plan = nullptr,
          .run = run_preflight,
          .learn = nullptr,
          .merge = merge_preflight};
}

DoctorStage network_probe_stage() {
  return {.name = "network",
          .what = "network: one all_reduce across the hosts at 1 and 16 MiB, to price the stages that follow",
          .prior_s = prior_probe_s,
          .applies = measures_network,
          .plan = nullptr,
          .run = probe_network,
          .learn = learn_network,
          .merge = merge_nothing};
}

}  // namespace fb
