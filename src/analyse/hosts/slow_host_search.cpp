#include "analyse/hosts/slow_host_search.hpp"

#include <set>

namespace fb {
namespace {

std::vector<HostPair> pairs_of(const std::vector<PairFigure>& figures) {
  std::vector<HostPair> out;
  out.reserve(figures.size());
  for (const auto& f : figures) out.emplace_back(f.a, f.b);
  return out;
}

int rounds_in(const std::vector<PairFigure>& figures) {
  std::set<int> rounds;
  for (const auto& f : figures) rounds.insert(f.round);
  return static_cast<int>(rounds.size());
}

// The first pass's suspects: the hosts it named, and both ends of every slow pair no named host
// explains (a slow link, or a pair with an end of too few pairs).
std::vector<int> suspects_of(const NodeRanking& r) {
  std::set<int> s;
  for (const auto& n : r.named) s.insert(n.host);
  for (const auto* list : {&r.slow_links, &r.undecided})
    for (const auto& p : *list) s.insert({p.a, p.b});
  return {s.begin(), s.end()};
}

// The hosts every pair of which was healthy in the first pass.
std::vector<int> known_good_of(int hosts, const std::vector<PairFigure>& figures, double slow_below) {
  std::vector<int> pairs(static_cast<std::size_t>(hosts), 0);
  std::vector<bool> slow(static_cast<std::size_t>(hosts), false);
  for (const auto& f : figures)
    for (const int h : {f.a, f.b}) {
      ++pairs[static_cast<std::size_t>(h)];
      if (f.busbw_gbs < slow_below) slow[static_cast<std::size_t>(h)] = true;
    }
  std::vector<int> good;
  for (int h = 0; h < hosts; ++h)
    if (pairs[static_cast<std::size_t>(h)] > 0 && !slow[static_cast<std::size_t>(h)]) good.push_back(h);
  return good;
}

std::vector<HostMeasured> count_pairs(int hosts, const std::vector<PairFigure>& figures,
                                      std::size_t first_pass, double slow_below) {
  std::vector<HostMeasured> out(static_cast<std::size_t>(hosts));
  for (std::size_t i = 0; i < figures.size(); ++i)
    for (const int h : {figures[i].a, figures[i].b}) {
      auto& m = out[static_cast<std::size_t>(h)];
      ++(i < first_pass ? m.first_pairs : m.known_good_pairs);
      if (figures[i].busbw_gbs < slow_below) ++m.slow_pairs;
    }
  return out;
}

}  // namespace

SearchOutcome search_round_robin(int hosts, const std::vector<std::string>& names, const RankingRule& rule,
                                 const MeasureRounds& measure) {
  SearchOutcome out;
  out.complete = measure(round_robin_rounds(hosts), 1, out.figures);
  out.rounds = rounds_in(out.figures);
  out.ranking = rank_hosts(out.figures, names, rule);
  out.hosts = count_pairs(hosts, out.figures, out.figures.size(), out.ranking.slow_below_gbs);
  return out;
}

SearchOutcome search_sampled(int hosts, const std::vector<std::string>& names, const SamplingPlan& plan,
                             const RankingRule& rule, const MeasureRounds& measure) {
  SearchOutcome out;
  const auto first = sampling_rounds(hosts, plan);
  out.complete = measure(first, 1, out.figures);
  out.ranking = rank_hosts(out.figures, names, rule);
  out.suspects = suspects_of(out.ranking);
  const auto first_pass = out.figures.size();
  if (out.complete && !out.suspects.empty()) {
    const auto good = known_good_of(hosts, out.figures, out.ranking.slow_below_gbs);
    out.known_good = static_cast<int>(good.size());
    const auto repairs = repair_rounds(out.suspects, good, pairs_of(out.figures), plan);
    out.complete = measure(repairs, static_cast<int>(first.size()) + 1, out.figures);
    // Every pair ranked again against the first pass's reference and threshold: the re-pairs are the
    // suspects', and neither their median nor their spread is a healthy pair's.
    RankingRule again = rule;
    again.reference_gbs = out.ranking.reference_gbs;
    again.slow_share = out.ranking.slow_share;
    again.reference_from = out.ranking.reference_from;
    again.reference_pairs = out.ranking.reference_pairs;
    again.spread = out.ranking.spread;
    out.ranking = rank_hosts(out.figures, names, again);
  }
  out.rounds = rounds_in(out.figures);
  out.hosts = count_pairs(hosts, out.figures, first_pass, out.ranking.slow_below_gbs);
  return out;
}

}  // namespace fb
