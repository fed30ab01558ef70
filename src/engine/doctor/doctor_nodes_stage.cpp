#include "engine/doctor/doctor_nodes_stage.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <set>

#include "bench/node_detection.hpp"
#include "engine/commands/nodes_rounds.hpp"
#include "engine/doctor/doctor_job_stages.hpp"

namespace fb {
namespace {

int host_count(const DoctorContext& ctx) {
  return static_cast<int>(std::set(ctx.job->hosts().begin(), ctx.job->hosts().end()).size());
}

// 3 hosts or more, each with as many ranks: with 2, one pair cannot tell which host is slow.
bool nodes_apply(const DoctorContext& ctx) {
  if (!measures_network(ctx) || host_count(ctx) < 3) return false;
  const auto hosts = job_hosts(ctx.job->hosts());
  return std::all_of(hosts.ranks.begin(), hosts.ranks.end(),
                     [&](const auto& r) { return r.size() == hosts.ranks[0].size(); });
}

// A round before one is measured: the pairs' communicators as the network stage's set of workers cost
// (or the prior), and the window. Not the cluster's speed: a slow host drags that down for every pair.
double round_prior_s(const DoctorContext& ctx, double window_s) {
  FabricSpeed set_up;
  set_up.start_s = ctx.speed.known() ? ctx.speed.start_s : ctx.prior.start_s;
  return estimate_nodes_s(1, kDoctorPairBytes, window_s, set_up);
}

NodesTime planned(const DoctorContext& ctx, double window_s) {
  return nodes_time(host_count(ctx), round_prior_s(ctx, window_s), doctor_sampling(ctx.request.quick),
                    nodes_budget_s(ctx));
}

// The window: --quick its least (a healthy pair's 16 MiB takes 19 ms on the fake hosts: 10 operations
// in 0.2 s, and a slow host is slower by far more than their spread), else the default, cut to its least
// where the default's rounds would not fit.
StagePlan plan_nodes(const DoctorContext& ctx) {
  StagePlan plan;
  plan.pair_window_s = ctx.request.quick ? kDoctorPairMinWindowS : kDoctorPairWindowS;
  const double budget = nodes_budget_s(ctx);
  if (planned(ctx, plan.pair_window_s).seconds > budget && plan.pair_window_s > kDoctorPairMinWindowS) {
    const auto full = planned(ctx, plan.pair_window_s);
    plan.cuts.push_back(
        {"nodes",
         fmt::format("{:.1f} s window per round, {:.1f} s instead", kDoctorPairWindowS,
                     kDoctorPairMinWindowS),
         fmt::format("{} rounds estimated {:.0f} s at {:.1f} s a round; {:.0f} s for the stage", full.rounds,
                     full.seconds, round_prior_s(ctx, kDoctorPairWindowS), budget)});
    plan.pair_window_s = kDoctorPairMinWindowS;
  }
  plan.estimate_s = std::min(planned(ctx, plan.pair_window_s).seconds, std::max(budget, 0.0));
  return plan;
}

double prior_nodes_s(const DoctorContext& ctx) {
  return planned(ctx, ctx.request.quick ? kDoctorPairMinWindowS : kDoctorPairWindowS).seconds;
}

NodesRequest doctor_nodes_request(const DoctorContext& ctx) {
  NodesRequest r;
  r.measure = unverified_all_reduce(ctx.collectives);
  r.measure.sizes = {kDoctorPairBytes};
  r.sampling = doctor_sampling(ctx.request.quick);
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
  const auto request = doctor_nodes_request(ctx);
  const auto hosts = job_hosts(ctx.job->hosts());
  const int pair_ranks = 2 * static_cast<int>(hosts.ranks[0].size());
  NodesRounds rounds(nodes_pair_plan(request, ctx.facts, pair_ranks), hosts, ctx.events);
  const NodesMode mode = planned(ctx, ctx.plan.pair_window_s).mode;
  auto& info = out.nodes.emplace();
  info.mode = mode == NodesMode::sampling ? "sampling" : "round robin";
  info.collective = "all_reduce";
  info.bytes = kDoctorPairBytes;
  // The next round runs only where it fits what is left of the stage's time, at the rounds' own cost.
  const double budget = nodes_budget_s(ctx);
  const auto start = std::chrono::steady_clock::now();
  const RoundGate gate = [&](int /*rounds_run*/, double seconds_per_round) {
    const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return spent + seconds_per_round <= budget;
  };
  rounds.run_search(mode, request, info, gate);
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

SamplingPlan doctor_sampling(bool quick) {
  if (!quick) return SamplingPlan{};
  SamplingPlan plan;
  plan.peers = 3;
  plan.passes = 1;
  plan.retest_peers = 2;
  return plan;
}

double nodes_budget_s(const DoctorContext& ctx) {
  const double reserve = std::min(kSweepReserveShare * ctx.budget_left_s, least_job_collectives_s(ctx));
  return ctx.budget_left_s - reserve;
}

DoctorStage nodes_stage() {
  return {.name = "nodes",
          .what =
              "nodes: pairs of hosts before the sweeps (the round robin, or each host in a few pairs and the "
              "suspects re-paired with hosts known good): the slow host named",
          .prior_s = prior_nodes_s,
          .applies = nodes_apply,
          .plan = plan_nodes,
          .run = measure_node_pairs,
          .learn = nullptr,
          .merge = merge_nodes};
}

}  // namespace fb
