#include "analyse/hosts/nodes_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

#include "analyse/hosts/node_ranking.hpp"
#include "comm/hostlist.hpp"

namespace fb {
namespace {

// The hosts in the job's order: their first rank's (the document's GPUs), then any other pair's.
std::vector<std::string> host_order(const Result& r, const NodesInfo& n) {
  std::vector<std::string> names;
  const auto add = [&](const std::string& h) {
    if (!h.empty() && std::find(names.begin(), names.end(), h) == names.end()) names.push_back(h);
  };
  for (const auto& g : r.gpus) add(g.host);
  for (const auto& p : n.pairs) {
    add(p.a);
    add(p.b);
  }
  return names;
}

int index_of(const std::vector<std::string>& names, const std::string& host) {
  return static_cast<int>(std::find(names.begin(), names.end(), host) - names.begin());
}

// The rule the document was ranked by: its threshold and, past the round robin, its first pass's
// reference ("the median of 60 pairs"), spread and the pairs it was taken from.
RankingRule recorded_rule(const NodesInfo& n) {
  RankingRule rule;
  if (n.reference_gbps > 0 && n.slow_below_gbps > 0) rule.slow_share = n.slow_below_gbps / n.reference_gbps;
  if (n.reference_from == "given" || n.mode == "sampling") rule.reference_gbs = n.reference_gbps;
  rule.spread = n.spread;
  for (const auto& [words, from] : {std::pair{"the median of ", ReferenceFrom::median},
                                    std::pair{"the fastest of ", ReferenceFrom::fastest}})
    if (n.mode == "sampling" && n.reference_from.starts_with(words)) {
      rule.reference_from = from;
      rule.reference_pairs =
          static_cast<std::size_t>(std::atoi(n.reference_from.c_str() + std::strlen(words)));
    }
  return rule;
}

// Where the rounds stopped early (the doctor's budget), the hosts measured in fewer pairs than one takes
// to tell a slow host from a slow peer were not judged: said, so that "no host named" is not read as
// "every host healthy".
std::vector<Finding> unjudged(const NodesInfo& n, const std::vector<std::string>& names,
                              const std::vector<PairFigure>& figures, const RankingRule& rule) {
  if (n.cut.empty()) return {};
  std::vector<int> pairs(names.size(), 0);
  for (const auto& f : figures)
    for (const int h : {f.a, f.b}) ++pairs[static_cast<std::size_t>(h)];
  std::vector<std::string> left;
  for (std::size_t h = 0; h < names.size(); ++h)
    if (pairs[h] < rule.min_pairs_per_host) left.push_back(names[h]);
  if (left.empty()) return {};
  return {{"NODE_NOT_JUDGED", Severity::info,
           fmt::format("the pairs of hosts {}: {} of {} hosts ({}) measured in fewer than {} pairs were not "
                       "judged: that none of them is named says nothing of them",
                       n.cut, left.size(), names.size(), compress_hostlist(left), rule.min_pairs_per_host),
           fmt::format("every host in at least {} pairs", rule.min_pairs_per_host),
           "give the doctor a larger --budget, or run `fabricbench nodes`, which has time for every round"}};
}

}  // namespace

std::vector<Finding> check_nodes(const Result& r) {
  if (!r.nodes) return {};
  const auto& n = *r.nodes;
  const auto names = host_order(r, n);
  std::vector<PairFigure> figures;
  for (const auto& p : n.pairs)
    if (p.failure.empty() && p.busbw_gbps > 0)
      figures.push_back({index_of(names, p.a), index_of(names, p.b), p.busbw_gbps, p.round});
  const RankingRule rule = recorded_rule(n);
  auto findings = rank_hosts(figures, names, rule).findings;
  for (auto& f : unjudged(n, names, figures, rule)) findings.push_back(std::move(f));
  return findings;
}

}  // namespace fb
