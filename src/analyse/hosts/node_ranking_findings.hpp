#pragma once
// The words of `fabricbench nodes`' findings (analyse/hosts/node_ranking.hpp): the evidence cites each
// named host's pair figures against the reference, as the other findings cite theirs.
#include <cstddef>
#include <string>
#include <vector>

#include "analyse/hosts/node_ranking.hpp"

namespace fb {

std::string host_name(int host, const std::vector<std::string>& names);

Finding slow_host_finding(const NamedHost& host, const NodeRanking& r, const std::vector<std::string>& names);
Finding slow_link_finding(const PairFigure& pair, const NodeRanking& r,
                          const std::vector<std::string>& names);
Finding undecided_finding(const NodeRanking& r, const std::vector<std::string>& names,
                          const RankingRule& rule);
Finding too_few_pairs_finding(const NodeRanking& r, std::size_t pair_count);

}  // namespace fb
