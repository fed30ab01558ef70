#include "engine/doctor/doctor_job_stages.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "bench/node_schedule.hpp"
#include "core/units.hpp"
#include "engine/commands/nodes_measurement.hpp"
#include "engine/commands/nodes_rounds.hpp"
#include "engine/job/host_sections.hpp"
#include "engine/plans/plan_builder.hpp"
#include "engine/pricing/estimates.hpp"

namespace fb {
namespace {

// Under a job the doctor compared the hosts before it opened the machine (engine/doctor).
bool preflight_made(const DoctorContext& ctx) { return ctx.preflight != nullptr; }
bool measures_network(const DoctorContext& ctx) {
  return ctx.job != nullptr && ctx.job->size() > 1 && !ctx.request.prolog && !ctx.request.passive;
}

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

std::size_t host_count(const DoctorContext& ctx) {
  return std::set(ctx.job->hosts().begin(), ctx.job->hosts().end()).size();
}

// 3 hosts or more, each with as many ranks: with 2, one pair cannot tell which host is slow.
bool nodes_apply(const DoctorContext& ctx) {
  if (!measures_network(ctx) || host_count(ctx) < 3) return false;
  const auto hosts = job_hosts(ctx.job->hosts());
  return std::all_of(hosts.ranks.begin(), hosts.ranks.end(),
                     [&](const auto& r) { return r.size() == hosts.ranks[0].size(); });
}

int nodes_rounds(const DoctorContext& ctx) { return round_count(static_cast<int>(host_count(ctx))); }

// The window each round measures for, cut to its least before the stage is cut.
StagePlan plan_nodes(const DoctorContext& ctx) {
  StagePlan plan;
  const auto estimate = [&](double window) {
    return estimate_nodes_s(nodes_rounds(ctx), kDoctorPairBytes, window, ctx.speed);
  };
  plan.pair_window_s = kDoctorPairWindowS;
  if (!ctx.speed.known()) return plan;
  if (estimate(plan.pair_window_s) > ctx.budget_left_s) {
    plan.cuts.push_back({"nodes",
                         fmt::format("{:.1f} s window per round, {:.1f} s instead", kDoctorPairWindowS,
                                     kDoctorPairMinWindowS),
                         budget_reason(estimate(plan.pair_window_s), ctx.speed, ctx.budget_left_s)});
    plan.pair_window_s = kDoctorPairMinWindowS;
  }
  if (estimate(plan.pair_window_s) > ctx.budget_left_s) {
    plan.cuts.push_back({"nodes",
                         fmt::format("the pairs of hosts ({} rounds): no host is named; run "
                                     "`fabricbench nodes` with time for them",
                                     nodes_rounds(ctx)),
                         budget_reason(estimate(plan.pair_window_s), ctx.speed, ctx.budget_left_s)});
    plan.pair_window_s = 0;
  }
  plan.estimate_s = plan.pair_window_s > 0 ? estimate(plan.pair_window_s) : 0;
  return plan;
}

double prior_nodes_s(const DoctorContext& ctx) {
  return estimate_nodes_s(nodes_rounds(ctx), kDoctorPairBytes, kDoctorPairWindowS,
                          ctx.speed.known() ? ctx.speed : ctx.prior);
}

NodesRequest doctor_nodes_request(const DoctorContext& ctx) {
  NodesRequest r;
  r.mode = NodesModeChoice::round_robin;
  r.measure = unverified_all_reduce(ctx.collectives);
  r.measure.sizes = {kDoctorPairBytes};
  auto& sampling = r.measure.settings.sampling;
  sampling = Sampling{};  // as `nodes` measures: every pair of a round over one shared window
  sampling.max_time_s = ctx.plan.pair_window_s;
  sampling.tail_iters = 0;
  sampling.full_window = true;
  sampling.max_batches = 100000;
  return r;
}

StageOutput measure_node_pairs(const DoctorContext& ctx) {
  StageOutput out;
  if (ctx.plan.pair_window_s <= 0) return out;  // cut: said by the plan
  const auto request = doctor_nodes_request(ctx);
  const auto hosts = job_hosts(ctx.job->hosts());
  const int pair_ranks = 2 * static_cast<int>(hosts.ranks[0].size());
  NodesRounds rounds(nodes_pair_plan(request, ctx.facts, pair_ranks), hosts, ctx.events);
  auto& info = out.nodes.emplace();
  info.mode = "round robin";
  info.collective = "all_reduce";
  info.bytes = kDoctorPairBytes;
  rounds.run_round_robin(request, info);
  info.seconds_per_round = rounds.seconds_per_round();
  if (!rounds.failure().empty()) {
    out.failure = rounds.failure();
    out.code = rounds.failure_code();
  }
  return out;
}

void merge_nodes(StageOutput& out, Result& result) {
  if (out.nodes) result.nodes = std::move(out.nodes);
}

}  // namespace

StagePlan plan_job_collectives(const DoctorContext& ctx) {
  StagePlan plan;
  plan.sizes = ctx.collectives.sizes;
  if (!ctx.speed.known()) return plan;
  const double share = nodes_apply(ctx) ? kCollectivesShareBeforeNodes : 1.0;
  const double budget = ctx.budget_left_s * share;
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

DoctorStage nodes_stage() {
  return {.name = "nodes",
          .what = "nodes: pairs of hosts in rounds, each against the others: the slow host named",
          .prior_s = prior_nodes_s,
          .applies = nodes_apply,
          .plan = plan_nodes,
          .run = measure_node_pairs,
          .learn = nullptr,
          .merge = merge_nodes};
}

}  // namespace fb
