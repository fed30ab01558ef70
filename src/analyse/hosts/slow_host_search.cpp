#include "analyse/hosts/slow_host_search.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "analyse/hosts/slow_threshold.hpp"

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

// The round robin measured twice (`figures`: the first pass's `first` figures, then the second's): each
// pair once, at the better of its figures (contention and stalls only ever slow a pair), and each pair's
// two figures, for the spread of one figure.
std::pair<std::vector<PairFigure>, std::vector<std::pair<double, double>>> repeats_of(
    const std::vector<PairFigure>& figures, std::size_t first) {
  std::map<HostPair, std::size_t> at;
  std::vector<PairFigure> best;
  std::vector<std::pair<double, double>> twice;
  for (std::size_t i = 0; i < figures.size(); ++i) {
    const auto& f = figures[i];
    const auto [it, fresh] = at.try_emplace({f.a, f.b}, best.size());
    if (fresh || i < first) {
      if (fresh) best.push_back(f);
      continue;
    }
    auto& kept = best[it->second];
    twice.emplace_back(kept.busbw_gbs, f.busbw_gbs);
    if (f.busbw_gbs > kept.busbw_gbs) kept = f;
  }
  return {best, twice};
}

// A suspect whose re-pairs with hosts the first pass found good all ran above the reference by as much as
// the threshold is below it: the re-pairs' rounds hold fewer pairs, and where that makes them faster the
// first pass's rounds were slowing their pairs (they share a fabric, or a machine), so the suspect's pairs
// below the reference there came from its round, not from it. Those pairs are set aside before every pair
// is ranked again. A host slow in a re-pair stays, and so does one whose re-pairs merely read healthy (a host
// slow now and then is healthy in some rounds).
std::vector<PairFigure> without_cleared(const std::vector<PairFigure>& figures, std::size_t first_pass,
                                        const std::vector<int>& suspects, const NodeRanking& first) {
  const double fast_above = first.reference_gbs * (2.0 - first.slow_share);
  std::set<int> cleared;
  for (const int s : suspects) {
    int repairs = 0;
    bool fast = true;
    for (std::size_t i = first_pass; i < figures.size(); ++i)
      if (figures[i].a == s || figures[i].b == s) {
        ++repairs;
        fast = fast && figures[i].busbw_gbs > fast_above;
      }
    if (repairs > 0 && fast) cleared.insert(s);
  }
  std::vector<PairFigure> kept;
  for (std::size_t i = 0; i < figures.size(); ++i) {
    const auto& f = figures[i];
    const bool slow = f.busbw_gbs < first.reference_gbs;  // slow, or low in rank
    if (i >= first_pass || !slow || !(cleared.contains(f.a) || cleared.contains(f.b))) kept.push_back(f);
  }
  return kept;
}

}  // namespace

NodeRanking rank_after_repairs(const std::vector<PairFigure>& figures, std::size_t first_pass,
                               const NodeRanking& first, const std::vector<std::string>& names,
                               const RankingRule& rule) {
  // The re-pairs are the suspects', and neither their median nor their spread is a healthy pair's.
  RankingRule again = rule;
  again.reference_gbs = first.reference_gbs;
  again.slow_share = first.slow_share;
  again.reference_from = first.reference_from;
  again.reference_pairs = first.reference_pairs;
  again.spread = first.spread;
  again.rank_share = first.rank_share;
  return rank_hosts(without_cleared(figures, first_pass, suspects_of(first), first), names, again);
}

namespace {

// The first pass's suspects re-paired with hosts it found good (never a pair of `met` again), appended to
// the figures measured and to those ranked (`ranked`, the first pass's `ranked.size()` figures), and every
// pair ranked again.
void retest_suspects(int hosts, const std::vector<std::string>& names, const SamplingPlan& plan,
                     const RankingRule& rule, const MeasureRounds& measure, const std::vector<HostPair>& met,
                     SearchOutcome& out, std::vector<PairFigure>& ranked) {
  out.suspects = suspects_of(out.ranking);
  if (!out.complete || out.suspects.empty()) return;
  const auto first_pass = ranked.size();
  const auto good = known_good_of(hosts, ranked, out.ranking.slow_below_gbs);
  out.known_good = static_cast<int>(good.size());
  const auto repairs = repair_rounds(out.suspects, good, met, plan);
  if (repairs.empty()) return;
  int last = 0;
  for (const auto& f : out.figures) last = std::max(last, f.round);
  std::vector<PairFigure> again;
  out.complete = measure(repairs, last + 1, again);
  out.figures.insert(out.figures.end(), again.begin(), again.end());
  ranked.insert(ranked.end(), again.begin(), again.end());
  out.ranking = rank_after_repairs(ranked, first_pass, out.ranking, names, rule);
}

}  // namespace

SearchOutcome search_round_robin(int hosts, const std::vector<std::string>& names, const SamplingPlan& plan,
                                 const RankingRule& rule, const MeasureRounds& measure) {
  SearchOutcome out;
  const auto rounds = round_robin_rounds(hosts);
  out.complete = measure(rounds, 1, out.figures);
  auto ranked = out.figures;
  RankingRule with_repeats = rule;
  if (out.complete && round_robin_passes(hosts) > 1) {
    out.complete = measure(rounds, static_cast<int>(rounds.size()) + 1, out.figures);
    const auto repeats = repeats_of(out.figures, ranked.size());
    if (with_repeats.spread <= 0) with_repeats.spread = repeat_spread(repeats.second);
    ranked = repeats.first;
  }
  out.ranking = rank_hosts(ranked, names, with_repeats);
  const auto first_pass = ranked.size();
  // Every pair met already: a suspect meets a host known good again, in a round of fewer pairs.
  retest_suspects(hosts, names, plan, with_repeats, measure, {}, out, ranked);
  out.rounds = rounds_in(out.figures);
  out.hosts = count_pairs(hosts, ranked, first_pass, out.ranking.slow_below_gbs);
  return out;
}

SearchOutcome search_sampled(int hosts, const std::vector<std::string>& names, const SamplingPlan& plan,
                             const RankingRule& rule, const MeasureRounds& measure) {
  SearchOutcome out;
  out.complete = measure(sampling_rounds(hosts, plan), 1, out.figures);
  out.ranking = rank_hosts(out.figures, names, rule);
  auto ranked = out.figures;
  const auto first_pass = ranked.size();
  retest_suspects(hosts, names, plan, rule, measure, pairs_of(out.figures), out, ranked);
  out.rounds = rounds_in(out.figures);
  out.hosts = count_pairs(hosts, out.figures, first_pass, out.ranking.slow_below_gbs);
  return out;
}

}  // namespace fb
