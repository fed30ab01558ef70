#include "engine/commands/nodes_rounds.hpp"

#include <fmt/format.h>

#include <chrono>
#include <map>

#include "bench/node_detection.hpp"
#include "bench/node_sampling.hpp"
#include "comm/hostlist.hpp"
#include "core/interrupt.hpp"
#include "core/units.hpp"

namespace fb {
namespace {

RankingRule rule_of(const NodesRequest& r) {
  RankingRule rule;
  rule.slow_share = r.slow_share;
  rule.reference_gbs = r.reference_gbps;
  return rule;
}

std::string reference_from(const NodeRanking& r, std::size_t pairs) {
  if (r.reference_from == ReferenceFrom::given) return "given";
  return fmt::format("the {} of {} pairs", r.reference_from == ReferenceFrom::median ? "median" : "fastest",
                     pairs);
}

std::vector<HostPair> pairs_of(const std::vector<PairFigure>& figures) {
  std::vector<HostPair> out;
  out.reserve(figures.size());
  for (const auto& f : figures) out.emplace_back(f.a, f.b);
  return out;
}

}  // namespace

double NodesRounds::seconds_per_round() const {
  return rounds_run_ > 0 ? spent_s_ / rounds_run_ : kAssumedSecondsPerRound;
}

bool NodesRounds::run_one(const PairRound& round, int number, int total, std::vector<PairFigure>& figures,
                          NodesInfo& info) {
  plan_.groups = round_groups(hosts_, round);
  std::string pairs;
  for (const auto& [a, b] : round)
    pairs += fmt::format("{}{}-{}", pairs.empty() ? "" : ", ", hosts_.names[a], hosts_.names[b]);
  const int left = total - number + 1;
  events_.emit(
      make_event(EventKind::stage, fmt::format("nodes round {} of {}: {} (about {} left)", number, total,
                                               pairs, format_seconds(left * seconds_per_round()))));
  std::map<int, Point> got;
  const auto t0 = std::chrono::steady_clock::now();
  last_ = run_plan(
      plan_, [&](int group, const Point& p) { got[group] = p; }, events_);
  spent_s_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ++rounds_run_;
  std::string measured;
  for (std::size_t g = 0; g < round.size(); ++g) {
    const auto [a, b] = round[g];
    NodePair pair{hosts_.names[a], hosts_.names[b], number, 0, 0, {}};
    if (const auto it = got.find(static_cast<int>(g)); it != got.end()) {
      pair.busbw_gbps = it->second.busbw_gbps;
      pair.time_us = it->second.time_us.median;
      figures.push_back({a, b, pair.busbw_gbps, number});
      measured +=
          fmt::format("{}{}-{} {:.2f} GB/s", measured.empty() ? "" : ", ", pair.a, pair.b, pair.busbw_gbps);
    } else {
      pair.failure = last_.supervisor.ok ? "no figure came back" : last_.failure;
    }
    info.pairs.push_back(std::move(pair));
  }
  if (!measured.empty())
    events_.emit(make_event(EventKind::note, fmt::format("round {}: {}", number, measured)));
  if (last_.supervisor.ok) return true;
  failure_ = fmt::format("round {} of {}: {}", number, total, last_.failure);
  failure_code_ = last_.supervisor.code;
  return false;
}

bool NodesRounds::run(const std::vector<PairRound>& rounds, int first, int total,
                      std::vector<PairFigure>& figures, NodesInfo& info) {
  for (std::size_t i = 0; i < rounds.size(); ++i) {
    if (interrupt_requested()) {
      failure_ = fmt::format("interrupted before round {} of {}", first + static_cast<int>(i), total);
      failure_code_ = ExitCode::run_failed;
      return false;
    }
    if (!run_one(rounds[i], first + static_cast<int>(i), total, figures, info)) return false;
  }
  return true;
}

void NodesRounds::finish(const NodeRanking& ranking, NodesInfo& info) const {
  info.reference_gbps = ranking.reference_gbs;
  info.slow_below_gbps = ranking.slow_below_gbs;
  info.named = named_host_names(ranking, hosts_.names);
  info.exclude = compress_hostlist(info.named);
}

NodeRanking NodesRounds::run_round_robin(const NodesRequest& request, NodesInfo& info) {
  const auto rounds = round_robin_rounds(static_cast<int>(hosts_.names.size()));
  info.rounds_planned = static_cast<int>(rounds.size());
  std::vector<PairFigure> figures;
  run(rounds, 1, info.rounds_planned, figures, info);
  auto ranking = rank_hosts(figures, hosts_.names, rule_of(request));
  info.reference_from = reference_from(ranking, figures.size());
  finish(ranking, info);
  return ranking;
}

NodeRanking NodesRounds::run_sampling(const NodesRequest& request, NodesInfo& info) {
  const int n = static_cast<int>(hosts_.names.size());
  const auto rounds = sampling_rounds(n, request.sampling);
  info.rounds_planned = static_cast<int>(rounds.size()) + request.sampling.retest_peers;
  std::vector<PairFigure> sampled;
  const bool ok = run(rounds, 1, info.rounds_planned, sampled, info);
  auto first = rank_hosts(sampled, hosts_.names, rule_of(request));
  info.reference_from = reference_from(first, sampled.size());
  if (!ok || first.named.empty()) {
    finish(first, info);
    return first;
  }
  std::vector<int> suspects;
  suspects.reserve(first.named.size());
  for (const auto& h : first.named) suspects.push_back(h.host);
  const auto retest = retest_rounds(n, suspects, pairs_of(sampled), request.sampling);
  std::vector<PairFigure> retested;
  run(retest, static_cast<int>(rounds.size()) + 1, info.rounds_planned, retested, info);
  RankingRule again = rule_of(request);
  again.reference_gbs = first.reference_gbs;
  auto confirmed = rank_hosts(retested, hosts_.names, again);
  // The re-test names; the slow links and undecided pairs are the sampled passes'.
  for (const auto& f : first.findings)
    if (f.code != "NODE_SLOW") confirmed.findings.push_back(f);
  confirmed.reference_given = first.reference_given;
  confirmed.reference_from = first.reference_from;
  finish(confirmed, info);
  return confirmed;
}

}  // namespace fb
