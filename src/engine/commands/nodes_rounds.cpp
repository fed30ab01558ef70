#include "engine/commands/nodes_rounds.hpp"

#include <fmt/format.h>

#include <chrono>
#include <map>

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

std::string reference_from(const NodeRanking& r) {
  if (r.reference_from == ReferenceFrom::given) return "given";
  return fmt::format("the {} of {} pairs", r.reference_from == ReferenceFrom::median ? "median" : "fastest",
                     r.reference_pairs);
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
                      std::vector<PairFigure>& figures, NodesInfo& info, const RoundGate& gate) {
  for (std::size_t i = 0; i < rounds.size(); ++i) {
    const int number = first + static_cast<int>(i);
    if (interrupt_requested()) {
      failure_ = fmt::format("interrupted before round {} of {}", number, total);
      failure_code_ = ExitCode::run_failed;
      return false;
    }
    if (gate && rounds_run_ > 0 && !gate(rounds_run_, seconds_per_round())) {
      info.cut =
          fmt::format("stopped after round {} of {}: the next would not fit the time left ({:.1f} s a round)",
                      rounds_run_, total, seconds_per_round());
      events_.emit(make_event(EventKind::note, "nodes: " + info.cut));
      return false;
    }
    if (!run_one(rounds[i], number, total, figures, info)) return false;
  }
  return true;
}

void NodesRounds::finish(const SearchOutcome& outcome, NodesInfo& info) const {
  const auto& ranking = outcome.ranking;
  info.reference_gbps = ranking.reference_gbs;
  info.reference_from = reference_from(ranking);
  info.slow_below_gbps = ranking.slow_below_gbs;
  info.spread = ranking.spread;
  info.named = named_host_names(ranking, hosts_.names);
  info.exclude = compress_hostlist(info.named);
  info.hosts.clear();
  for (std::size_t h = 0; h < hosts_.names.size() && h < outcome.hosts.size(); ++h) {
    const auto& m = outcome.hosts[h];
    NodeHost host{hosts_.names[h], m.first_pairs, m.known_good_pairs, m.slow_pairs, -1};
    for (const auto& n : ranking.named)
      if (n.host == static_cast<int>(h)) host.healthy_chance = n.healthy_chance;
    info.hosts.push_back(std::move(host));
  }
}

SearchOutcome NodesRounds::run_search(NodesMode mode, const NodesRequest& request, NodesInfo& info,
                                      const RoundGate& gate) {
  const int n = static_cast<int>(hosts_.names.size());
  info.rounds_planned = mode == NodesMode::sampling ? sampling_round_count(request.sampling) : round_count(n);
  const MeasureRounds measure = [&](const std::vector<PairRound>& rounds, int first,
                                    std::vector<PairFigure>& figures) {
    return run(rounds, first, info.rounds_planned, figures, info, gate);
  };
  auto outcome = mode == NodesMode::sampling
                     ? search_sampled(n, hosts_.names, request.sampling, rule_of(request), measure)
                     : search_round_robin(n, hosts_.names, rule_of(request), measure);
  finish(outcome, info);
  return outcome;
}

}  // namespace fb
