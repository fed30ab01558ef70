#include "slow_host_search.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "analyse/hosts/node_ranking_findings.hpp"

namespace fb {
namespace {

// The standard normal's upper quartile: (Q3 - median) / sd.
constexpr double kQuartileSds = 0.6745;
// Below half of the reference a pair is slow whatever the spread.
constexpr double kLeastSlowShare = 0.5;

double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const double at = q * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(at));
  const auto hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (at - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

// The ranking's reference (analyse/hosts/node_ranking): given, the median of 10 pairs or more, else the
// fastest pair.
double reference_of(const std::vector<PairFigure>& pairs, const RankingRule& rule) {
  if (rule.reference_gbs > 0) return rule.reference_gbs;
  std::vector<double> v;
  v.reserve(pairs.size());
  for (const auto& p : pairs) v.push_back(p.busbw_gbs);
  if (v.empty()) return 0;
  if (v.size() < kMinPairsForMedian) return *std::max_element(v.begin(), v.end());
  std::sort(v.begin(), v.end());
  const auto n = v.size();
  return n % 2 != 0 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The rule with its slow share from the pairs' spread where it has none: the reference ranked first
// (the slow share does not move it), the spread measured against it.
RankingRule resolved(RankingRule rule, const std::vector<PairFigure>& pairs, double& spread) {
  spread = healthy_spread(pairs, reference_of(pairs, rule));
  if (rule.slow_share <= 0) rule.slow_share = slow_share_from_spread(spread);
  return rule;
}

std::vector<HostPair> pairs_of(const std::vector<PairFigure>& figures) {
  std::vector<HostPair> out;
  out.reserve(figures.size());
  for (const auto& f : figures) out.emplace_back(f.a, f.b);
  return out;
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

void count_pairs(const std::vector<PairFigure>& figures, std::size_t first_pass, double slow_below,
                 std::vector<HostMeasured>& hosts) {
  for (std::size_t i = 0; i < figures.size(); ++i)
    for (const int h : {figures[i].a, figures[i].b}) {
      auto& m = hosts[static_cast<std::size_t>(h)];
      ++(i < first_pass ? m.first_pairs : m.known_good_pairs);
      if (figures[i].busbw_gbs < slow_below) ++m.slow_pairs;
    }
}

double median_share(const std::vector<PairFigure>& pairs, double reference) {
  std::vector<double> v;
  v.reserve(pairs.size());
  for (const auto& p : pairs) v.push_back(p.busbw_gbs);
  return reference > 0 && !v.empty() ? quantile(v, 0.5) / reference : 0;
}

// A host named for its slow pairs with partners that are otherwise healthy: its pairs, slowest
// first, and its peers' other pairs (none with a named host).
NamedHost intermittent_host(int host, const std::vector<PairFigure>& figures, const NodeRanking& r,
                            const std::set<int>& named) {
  NamedHost n;
  n.host = host;
  std::set<int> peers;
  for (const auto& p : figures)
    if (p.a == host || p.b == host) {
      n.pairs.push_back(p);
      n.slow_pairs += p.busbw_gbs < r.slow_below_gbs ? 1 : 0;
      peers.insert(p.a == host ? p.b : p.a);
    }
  std::stable_sort(n.pairs.begin(), n.pairs.end(),
                   [](const auto& x, const auto& y) { return x.busbw_gbs < y.busbw_gbs; });
  n.share = median_share(n.pairs, r.reference_gbs);
  for (const auto& p : figures) {
    if (named.contains(p.a) || named.contains(p.b) || (!peers.contains(p.a) && !peers.contains(p.b)))
      continue;
    const double share = p.busbw_gbs / r.reference_gbs;
    n.peer_min_share = n.peer_pairs == 0 ? share : std::min(n.peer_min_share, share);
    n.peer_max_share = n.peer_pairs == 0 ? share : std::max(n.peer_max_share, share);
    ++n.peer_pairs;
  }
  return n;
}

// Slow links that share one host, each with another partner whose other pairs are healthy: that
// host is slow now and then (a flaky host), not each of its links. It is named with its pairs, and
// its links are no longer said.
// The hosts in the most slow links (at least kIntermittentPartners partners) that no named host explains.
std::vector<int> most_linked(const std::vector<PairFigure>& links, const std::set<int>& named) {
  std::map<int, std::set<int>> partners;
  for (const auto& p : links) {
    if (named.contains(p.a) || named.contains(p.b)) continue;
    partners[p.a].insert(p.b);
    partners[p.b].insert(p.a);
  }
  std::size_t most = kIntermittentPartners;
  std::vector<int> top;
  for (const auto& [host, with] : partners) {
    if (with.size() < most) continue;
    if (with.size() > most) top.clear();
    most = with.size();
    top.push_back(host);
  }
  return top;
}

void name_intermittent(NodeRanking& r, const std::vector<PairFigure>& figures,
                       const std::vector<std::string>& names, const RankingRule& rule) {
  std::set<int> named;
  for (const auto& n : r.named) named.insert(n.host);
  const auto first_new = r.named.size();
  // As the ranking explains away: the hosts of the most such links first, then look again.
  for (auto top = most_linked(r.slow_links, named); !top.empty(); top = most_linked(r.slow_links, named))
    for (const int h : top) {
      named.insert(h);
      r.named.emplace_back().host = h;
    }
  if (r.named.size() == first_new) return;
  for (auto i = first_new; i < r.named.size(); ++i)
    r.named[i] = intermittent_host(r.named[i].host, figures, r, named);
  std::erase_if(r.slow_links,
                [&](const PairFigure& p) { return named.contains(p.a) || named.contains(p.b); });
  r.findings.clear();
  for (const auto& n : r.named) r.findings.push_back(slow_host_finding(n, r, names, figures.size(), rule));
  for (const auto& p : r.slow_links) r.findings.push_back(slow_link_finding(p, r, names, rule));
  if (!r.undecided.empty()) r.findings.push_back(undecided_finding(r, names, rule));
}

}  // namespace

double healthy_spread(const std::vector<PairFigure>& pairs, double reference_gbs) {
  std::vector<double> v;
  for (const auto& p : pairs)
    if (p.busbw_gbs >= reference_gbs * (1 - kMinSlowDrop)) v.push_back(p.busbw_gbs);
  if (v.size() < kMinPairsForMedian) return 0;
  const double median = quantile(v, 0.5);
  return median > 0 ? (median - quantile(v, 0.25)) / median / kQuartileSds : 0;
}

double slow_share_from_spread(double spread) {
  return std::max(kLeastSlowShare, 1.0 - std::max(kMinSlowDrop, kSpreadsBelow * spread));
}

SearchOutcome search_round_robin(int hosts, const std::vector<std::string>& names, const RankingRule& rule,
                                 const MeasureRounds& measure) {
  SearchOutcome out;
  const auto rounds = round_robin_rounds(hosts);
  out.complete = measure(rounds, 1, out.figures);
  out.rounds = static_cast<int>(rounds.size());
  const RankingRule resolved_rule = resolved(rule, out.figures, out.spread);
  out.ranking = rank_hosts(out.figures, names, resolved_rule);
  name_intermittent(out.ranking, out.figures, names, resolved_rule);
  out.hosts.resize(static_cast<std::size_t>(hosts));
  count_pairs(out.figures, out.figures.size(), out.ranking.slow_below_gbs, out.hosts);
  return out;
}

SearchOutcome search_sampled(int hosts, const std::vector<std::string>& names, const SamplingPlan& plan,
                             const RankingRule& rule, const MeasureRounds& measure) {
  SearchOutcome out;
  const auto first = sampling_rounds(hosts, plan);
  out.complete = measure(first, 1, out.figures);
  out.rounds = static_cast<int>(first.size());
  const RankingRule first_rule = resolved(rule, out.figures, out.spread);
  out.ranking = rank_hosts(out.figures, names, first_rule);
  out.suspects = suspects_of(out.ranking);
  const auto first_pass = out.figures.size();
  out.hosts.resize(static_cast<std::size_t>(hosts));
  if (!out.complete || out.suspects.empty()) {
    count_pairs(out.figures, first_pass, out.ranking.slow_below_gbs, out.hosts);
    return out;
  }
  const auto good = known_good_of(hosts, out.figures, out.ranking.slow_below_gbs);
  out.known_good = static_cast<int>(good.size());
  const auto repairs = repair_rounds(out.suspects, good, pairs_of(out.figures), plan);
  out.complete = measure(repairs, out.rounds + 1, out.figures);
  out.rounds += static_cast<int>(repairs.size());
  // Every pair ranked again against the first pass's reference: the re-pairs are the suspects' and
  // their median is no healthy figure.
  RankingRule again = first_rule;
  again.reference_gbs = out.ranking.reference_gbs;
  const auto first_from = out.ranking.reference_from;
  const bool first_given = out.ranking.reference_given;
  out.ranking = rank_hosts(out.figures, names, again);
  name_intermittent(out.ranking, out.figures, names, again);
  out.ranking.reference_from = first_from;
  out.ranking.reference_given = first_given;
  count_pairs(out.figures, first_pass, out.ranking.slow_below_gbs, out.hosts);
  return out;
}

}  // namespace fb
