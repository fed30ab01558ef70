#include "analyse/hosts/nodes_check.hpp"

#include <algorithm>
#include <string>

#include "analyse/hosts/node_ranking.hpp"

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

}  // namespace

std::vector<Finding> check_nodes(const Result& r) {
  if (!r.nodes) return {};
  const auto& n = *r.nodes;
  const auto names = host_order(r, n);
  std::vector<PairFigure> figures;
  for (const auto& p : n.pairs)
    if (p.failure.empty() && p.busbw_gbps > 0)
      figures.push_back({index_of(names, p.a), index_of(names, p.b), p.busbw_gbps, p.round});
  RankingRule rule;
  if (n.reference_gbps > 0 && n.slow_below_gbps > 0) rule.slow_share = n.slow_below_gbps / n.reference_gbps;
  if (n.reference_from == "given" || n.mode == "sampling") rule.reference_gbs = n.reference_gbps;
  return rank_hosts(figures, names, rule).findings;
}

}  // namespace fb
