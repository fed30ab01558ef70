#pragma once
// What the node-ranking tests (test_node_ranking.cpp, test_node_sampling.cpp) both ask of a ranking.
#include <vector>

#include "analyse/hosts/node_ranking.hpp"

// The hosts a ranking named, in its order.
inline std::vector<int> named_hosts(const fb::NodeRanking& r) {
  std::vector<int> out;
  for (const auto& n : r.named) out.push_back(n.host);
  return out;
}

// A ranking rule held against a given healthy figure instead of the median of the pairs.
inline fb::RankingRule reference_rule(double gbs) {
  fb::RankingRule rule;
  rule.reference_gbs = gbs;
  return rule;
}
