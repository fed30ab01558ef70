#include "analyse/hosts/node_ranking.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "analyse/hosts/node_ranking_findings.hpp"
#include "analyse/hosts/rank_below.hpp"
#include "analyse/hosts/slow_threshold.hpp"
#include "core/stats.hpp"

namespace fb {
namespace {

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return sorted_quantile(v, 0.5);
}

double median_of(const std::vector<PairFigure>& pairs) {
  std::vector<double> v;
  v.reserve(pairs.size());
  for (const auto& p : pairs) v.push_back(p.busbw_gbs);
  return median_of(std::move(v));
}

double fastest_of(const std::vector<PairFigure>& pairs) {
  double best = 0;
  for (const auto& p : pairs) best = std::max(best, p.busbw_gbs);
  return best;
}

bool touches(const PairFigure& p, const std::set<int>& hosts) {
  return hosts.contains(p.a) || hosts.contains(p.b);
}

struct Tally {
  int pairs = 0, slow = 0;
};

// Each host's pairs and slow pairs, leaving out the pairs a named host already explains.
std::map<int, Tally> tally(const std::vector<PairFigure>& pairs, double slow_below,
                           const std::set<int>& named) {
  std::map<int, Tally> t;
  for (const auto& p : pairs) {
    if (touches(p, named)) continue;
    for (const int h : {p.a, p.b}) {
      ++t[h].pairs;
      if (p.busbw_gbs < slow_below) ++t[h].slow;
    }
  }
  return t;
}

// The hosts with the largest share of slow pairs (a strict majority of at least min_pairs pairs),
// leaving out the pairs of the hosts already named.
std::vector<int> most_slow(const std::vector<PairFigure>& pairs, double slow_below, int min_pairs,
                           const std::set<int>& named) {
  double best = 0;
  std::vector<int> top;
  for (const auto& [host, t] : tally(pairs, slow_below, named)) {
    if (t.pairs < min_pairs || 2 * t.slow <= t.pairs) continue;
    const double share = static_cast<double>(t.slow) / t.pairs;
    if (share > best) top.clear();
    if (share >= best) top.push_back(host);
    best = std::max(best, share);
  }
  return top;
}

// The hosts in the most slow pairs no named host explains, with at least kIntermittentPartners
// partners, where both ends of each such pair have min_pairs pairs (a slow link's ends are judged).
std::vector<int> most_linked(const std::vector<PairFigure>& pairs, double slow_below, int min_pairs,
                             const std::set<int>& named) {
  std::map<int, int> count;
  for (const auto& p : pairs) {
    ++count[p.a];
    ++count[p.b];
  }
  std::map<int, std::set<int>> partners;
  for (const auto& p : pairs) {
    if (p.busbw_gbs >= slow_below || touches(p, named) || count[p.a] < min_pairs || count[p.b] < min_pairs)
      continue;
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

// A host's pairs, leaving out those a named host explains.
std::vector<PairFigure> pairs_of_host(const std::vector<PairFigure>& pairs, int host,
                                      const std::set<int>& named) {
  std::vector<PairFigure> out;
  for (const auto& p : pairs)
    if ((p.a == host || p.b == host) && !touches(p, named)) out.push_back(p);
  return out;
}

// Of hosts alike by their share of slow pairs, the one whose pairs' median is lowest: named first and its
// pairs set aside, a healthy peer that shared its slow pairs is judged on its other pairs alone.
int slowest_of(const std::vector<PairFigure>& pairs, const std::vector<int>& hosts,
               const std::set<int>& named) {
  int best = hosts.front();
  double lowest = -1;
  for (const int h : hosts) {
    const auto mine = pairs_of_host(pairs, h, named);
    const double m = mine.empty() ? 0 : median_of(mine);
    if (lowest < 0 || m < lowest) {
      lowest = m;
      best = h;
    }
  }
  return best;
}

// Explaining away: name the hosts with the largest share of slow pairs, set their pairs aside, and
// look again, one host at a time; where no host has a majority left, the hosts in slow pairs with the most
// otherwise healthy partners (slow now and then). A healthy peer of a slow host keeps one slow pair among
// healthy ones once that host's pairs are set aside, so it is not named. Each host with whether it
// was named for its slow links rather than a majority.
std::vector<std::pair<int, bool>> name_slow_hosts(const std::vector<PairFigure>& pairs, double slow_below,
                                                  int min_pairs) {
  std::vector<std::pair<int, bool>> order;
  std::set<int> named;
  for (;;) {
    auto top = most_slow(pairs, slow_below, min_pairs, named);
    const bool intermittent = top.empty();
    if (intermittent) top = most_linked(pairs, slow_below, min_pairs, named);
    if (top.empty()) return order;
    const int h = slowest_of(pairs, top, named);
    named.insert(h);
    order.emplace_back(h, intermittent);
  }
}

// The hosts whose pairs rank below their peers' other pairs beyond kRankBelowChance while their median is
// `below` (the reference less kMinSlowDrop, or a given share of it), after those named already (their pairs
// set aside), the least likely first and one at a time; each with its chance.
std::vector<std::pair<int, double>> name_ranked_low(const std::vector<PairFigure>& pairs, double below,
                                                    int min_pairs, std::set<int> named) {
  std::vector<std::pair<int, double>> order;
  for (;;) {
    std::map<int, std::vector<double>> mine;
    std::vector<PairFigure> left;
    for (const auto& p : pairs)
      if (!touches(p, named)) left.push_back(p);
    for (const auto& p : left)
      for (const int h : {p.a, p.b}) mine[h].push_back(p.busbw_gbs);
    int best = -1;
    double least = kRankBelowChance;
    for (const auto& [h, figures] : mine) {
      if (static_cast<int>(figures.size()) < std::max(min_pairs, 3) || median_of(figures) >= below) continue;
      std::vector<double> others;
      for (const auto& p : left)
        if (p.a != h && p.b != h) others.push_back(p.busbw_gbs);
      const double chance = rank_below_chance(figures, others);
      if (chance < least) {
        least = chance;
        best = h;
      }
    }
    if (best < 0) return order;
    named.insert(best);
    order.emplace_back(best, least);
  }
}

NamedHost describe_host(int host, bool intermittent, const std::vector<PairFigure>& pairs,
                        const NodeRanking& r, const std::set<int>& named) {
  NamedHost n;
  n.host = host;
  n.intermittent = intermittent;
  std::set<int> peers;
  for (const auto& p : pairs)
    if (p.a == host || p.b == host) {
      n.pairs.push_back(p);
      n.slow_pairs += p.busbw_gbs < r.slow_below_gbs ? 1 : 0;
      peers.insert(p.a == host ? p.b : p.a);
    }
  std::stable_sort(n.pairs.begin(), n.pairs.end(),
                   [](const auto& x, const auto& y) { return x.busbw_gbs < y.busbw_gbs; });
  n.share = median_of(n.pairs) / r.reference_gbs;
  n.healthy_chance = healthy_host_chance(static_cast<int>(n.pairs.size()), n.slow_pairs,
                                         healthy_pair_slow_chance(r.spread, r.slow_share));
  for (const auto& p : pairs) {
    if (touches(p, named) || !touches(p, peers)) continue;
    const double share = p.busbw_gbs / r.reference_gbs;
    n.peer_min_share = n.peer_pairs == 0 ? share : std::min(n.peer_min_share, share);
    n.peer_max_share = n.peer_pairs == 0 ? share : std::max(n.peer_max_share, share);
    ++n.peer_pairs;
  }
  return n;
}

// The slow pairs no named host explains: a slow link where both ends have enough pairs to be
// judged healthy, undecided otherwise.
void sort_unexplained(const std::vector<PairFigure>& pairs, const std::set<int>& named, int min_pairs,
                      NodeRanking& r) {
  std::map<int, int> count;
  for (const auto& p : pairs) {
    ++count[p.a];
    ++count[p.b];
  }
  for (const auto& p : pairs) {
    if (p.busbw_gbs >= r.slow_below_gbs || touches(p, named)) continue;
    const bool judged = count[p.a] >= min_pairs && count[p.b] >= min_pairs;
    (judged ? r.slow_links : r.undecided).push_back(p);
  }
}

}  // namespace

namespace {

// The reference: given, an earlier ranking's (with how that one took it), the median of 10 pairs or
// more, else the fastest pair.
void take_reference(const std::vector<PairFigure>& pairs, const RankingRule& rule, NodeRanking& r) {
  r.reference_from = rule.reference_from                  ? *rule.reference_from
                     : r.reference_given                  ? ReferenceFrom::given
                     : pairs.size() >= kMinPairsForMedian ? ReferenceFrom::median
                                                          : ReferenceFrom::fastest;
  r.reference_gbs = rule.reference_gbs > 0                      ? rule.reference_gbs
                    : r.reference_from == ReferenceFrom::median ? median_of(pairs)
                                                                : fastest_of(pairs);
  r.reference_pairs = rule.reference_pairs > 0 ? rule.reference_pairs : pairs.size();
  r.spread = rule.spread > 0 ? rule.spread : healthy_spread(pairs, r.reference_gbs);
  r.slow_share = rule.slow_share > 0 ? rule.slow_share : slow_share_from_spread(r.spread);
  r.slow_below_gbs = r.slow_share * r.reference_gbs;
}

}  // namespace

NodeRanking rank_hosts(const std::vector<PairFigure>& pairs, const std::vector<std::string>& names,
                       const RankingRule& rule) {
  NodeRanking r;
  r.reference_given = rule.reference_gbs > 0 && !rule.reference_from;
  if (rule.reference_gbs <= 0 && pairs.size() < kMinPairsForFastest) {
    r.too_few_pairs = true;
    r.slow_share = rule.slow_share > 0 ? rule.slow_share : slow_share_from_spread(0);
    r.reference_gbs = pairs.empty() ? 0 : median_of(pairs);
    r.findings.push_back(too_few_pairs_finding(r, pairs.size()));
    return r;
  }
  take_reference(pairs, rule, r);
  const auto order = name_slow_hosts(pairs, r.slow_below_gbs, rule.min_pairs_per_host);
  std::set<int> named;
  for (const auto& [h, intermittent] : order) named.insert(h);
  r.rank_share = rule.rank_share > 0   ? rule.rank_share
                 : rule.slow_share > 0 ? rule.slow_share
                                       : 1 - kMinSlowDrop;
  const auto ranked_low =
      name_ranked_low(pairs, r.reference_gbs * r.rank_share, rule.min_pairs_per_host, named);
  for (const auto& [h, chance] : ranked_low) named.insert(h);
  for (const auto& [h, intermittent] : order)
    r.named.push_back(describe_host(h, intermittent, pairs, r, named));
  for (const auto& [h, chance] : ranked_low) {
    auto n = describe_host(h, false, pairs, r, named);
    n.ranked_low = true;
    n.healthy_chance = chance;
    r.named.push_back(std::move(n));
  }
  sort_unexplained(pairs, named, rule.min_pairs_per_host, r);
  for (const auto& n : r.named) r.findings.push_back(slow_host_finding(n, r, names));
  for (const auto& p : r.slow_links) r.findings.push_back(slow_link_finding(p, r, names));
  if (!r.undecided.empty()) r.findings.push_back(undecided_finding(r, names, rule));
  return r;
}

std::vector<std::string> named_host_names(const NodeRanking& ranking, const std::vector<std::string>& names) {
  std::vector<int> hosts;
  hosts.reserve(ranking.named.size());
  for (const auto& n : ranking.named) hosts.push_back(n.host);
  std::sort(hosts.begin(), hosts.end());
  std::vector<std::string> out;
  out.reserve(hosts.size());
  for (const int h : hosts) out.push_back(host_name(h, names));
  return out;
}

}  // namespace fb
