#include "topo/placement.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <tuple>

#include "core/error.hpp"

namespace fb {
namespace {

// Larger is better. Compared lexicographically.
struct GroupScore {
  int weakest_rank;
  double weakest_gbps;
  int rank_sum;
  int numa_nodes_negated;
  int cross_numa_pairs_negated;
  auto tie() const {
    return std::tie(weakest_rank, weakest_gbps, rank_sum, numa_nodes_negated, cross_numa_pairs_negated);
  }
};

GroupScore score(const Topology& t, const std::vector<int>& group) {
  GroupScore s{5, 1e30, 0, 0, 0};
  std::set<int> numa;
  for (std::size_t i = 0; i < group.size(); ++i) {
    const auto& g = t.gpus.at(static_cast<std::size_t>(group[i]));
    numa.insert(g.numa_node);
    for (std::size_t j = i + 1; j < group.size(); ++j) {
      const auto* p = t.find_pair(group[i], group[j]);
      const int rank = p ? connection_rank(p->connection) : 0;
      const double gbps = p ? p->wire_gbps : 0;
      s.weakest_rank = std::min(s.weakest_rank, rank);
      s.weakest_gbps = std::min(s.weakest_gbps, gbps);
      s.rank_sum += rank;
      if (g.numa_node != t.gpus.at(static_cast<std::size_t>(group[j])).numa_node)
        --s.cross_numa_pairs_negated;
    }
  }
  s.numa_nodes_negated = -static_cast<int>(numa.size());
  return s;
}

}  // namespace

int connection_rank(const Connection& c) {
  if (c.is_gpu_fabric()) return 5;
  switch (c.kind()) {
    case Connection::Kind::pix:
      return 4;
    case Connection::Kind::pxb:
      return 3;
    case Connection::Kind::phb:
      return 2;
    case Connection::Kind::node:
      return 1;
    default:
      return 0;
  }
}

std::vector<int> choose_gpus(const Topology& t, int count, Placement placement) {
  const int n = static_cast<int>(t.gpus.size());
  if (count < 1 || count > n)
    FB_USAGE_ERROR(fmt::format("a group of {} GPUs does not fit on this machine's {} GPUs", count, n));
  // Every combination, in lexicographic order (C(8,4) = 70; C(16,8) = 12870).
  std::vector<int> chosen;
  GroupScore chosen_score{};
  std::vector<bool> mask(static_cast<std::size_t>(n), false);
  std::fill(mask.begin(), mask.begin() + count, true);
  do {
    std::vector<int> group;
    for (int i = 0; i < n; ++i)
      if (mask[static_cast<std::size_t>(i)]) group.push_back(t.gpus[static_cast<std::size_t>(i)].index);
    const auto s = score(t, group);
    const bool better = chosen.empty() || (placement == Placement::best ? s.tie() > chosen_score.tie()
                                                                        : s.tie() < chosen_score.tie());
    if (better) {
      chosen = group;
      chosen_score = s;
    }
  } while (std::prev_permutation(mask.begin(), mask.end()));
  return chosen;
}

}  // namespace fb
