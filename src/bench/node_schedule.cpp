#include "bench/node_schedule.hpp"

#include <algorithm>
#include <numeric>

namespace fb {

std::vector<PairRound> circle_rounds(const std::vector<int>& order, int rounds) {
  if (order.size() < 2) return {};
  // Circle method: position 0 stays, the others rotate one step per round; an odd count gets a
  // phantom host (-1) whose partner has the bye.
  std::vector<int> circle = order;
  if (circle.size() % 2 != 0) circle.push_back(-1);
  const auto n = circle.size();
  rounds = std::min(rounds, static_cast<int>(n) - 1);
  std::vector<PairRound> out;
  for (int round = 0; round < rounds; ++round) {
    PairRound pairs;
    for (std::size_t i = 0; i < n / 2; ++i) {
      const int a = circle[i];
      const int b = circle[n - 1 - i];
      if (a >= 0 && b >= 0) pairs.emplace_back(std::min(a, b), std::max(a, b));
    }
    out.push_back(std::move(pairs));
    std::rotate(circle.begin() + 1, circle.end() - 1, circle.end());
  }
  return out;
}

std::vector<PairRound> round_robin_rounds(int hosts) {
  std::vector<int> order(static_cast<std::size_t>(std::max(hosts, 0)));
  std::iota(order.begin(), order.end(), 0);
  return circle_rounds(order, round_count(hosts));
}

int round_count(int hosts) { return hosts < 2 ? 0 : (hosts % 2 == 0 ? hosts - 1 : hosts); }

int round_robin_passes(int hosts) {
  constexpr int kFewPairs = 10;
  return hosts * (hosts - 1) / 2 < kFewPairs ? 2 : 1;
}

int round_robin_round_count(int hosts) { return round_robin_passes(hosts) * round_count(hosts); }

}  // namespace fb
