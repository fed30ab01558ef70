#include "engine/node_pairs.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace fb {

std::vector<std::vector<HostPair>> round_robin_rounds(int hosts) {
  if (hosts < 2) return {};
  // Circle method: position 0 stays, the others rotate one step per round; an odd count gets a
  // phantom host whose partner has the bye.
  const int n = hosts % 2 == 0 ? hosts : hosts + 1;
  std::vector<int> circle(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) circle[static_cast<std::size_t>(i)] = i;
  std::vector<std::vector<HostPair>> rounds;
  for (int round = 0; round < n - 1; ++round) {
    std::vector<HostPair> pairs;
    for (int i = 0; i < n / 2; ++i) {
      const int a = circle[static_cast<std::size_t>(i)];
      const int b = circle[static_cast<std::size_t>(n - 1 - i)];
      if (a < hosts && b < hosts) pairs.emplace_back(std::min(a, b), std::max(a, b));
    }
    rounds.push_back(std::move(pairs));
    std::rotate(circle.begin() + 1, circle.end() - 1, circle.end());
  }
  return rounds;
}

int round_count(int hosts) { return hosts < 2 ? 0 : (hosts % 2 == 0 ? hosts - 1 : hosts); }

double schedule_seconds(int hosts, double seconds_per_round) {
  return round_count(hosts) * seconds_per_round;
}

namespace {

double percentile(std::vector<double> values, double p) {
  std::sort(values.begin(), values.end());
  const auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(values.size())));
  return values[std::clamp<std::size_t>(rank, 1, values.size()) - 1];
}

std::vector<int> greedy_suspects(std::vector<PairMeasurement> slow) {
  std::vector<int> suspects;
  while (!slow.empty()) {
    std::map<int, int> count;
    for (const auto& m : slow) {
      ++count[m.pair.first];
      ++count[m.pair.second];
    }
    int most = 0;
    for (const auto& [host, c] : count) most = std::max(most, c);
    std::set<int> named;
    for (const auto& [host, c] : count)
      if (c == most) named.insert(host);
    suspects.insert(suspects.end(), named.begin(), named.end());
    std::erase_if(slow, [&](const PairMeasurement& m) {
      return named.contains(m.pair.first) || named.contains(m.pair.second);
    });
  }
  std::sort(suspects.begin(), suspects.end());
  return suspects;
}

}  // namespace

NodeFindings find_bad_nodes(const std::vector<PairMeasurement>& pairs, double slow_fraction) {
  NodeFindings f;
  if (pairs.empty()) return f;
  std::vector<double> values;
  values.reserve(pairs.size());
  for (const auto& p : pairs) values.push_back(p.busbw_gbs);
  f.median_gbs = percentile(values, 0.5);
  f.reference_gbs = percentile(values, 0.9);
  f.ranked = pairs;
  std::stable_sort(f.ranked.begin(), f.ranked.end(),
                   [](const auto& a, const auto& b) { return a.busbw_gbs < b.busbw_gbs; });
  for (const auto& p : f.ranked)
    if (p.busbw_gbs < slow_fraction * f.reference_gbs) f.slow.push_back(p);
  f.suspects = greedy_suspects(f.slow);
  return f;
}

}  // namespace fb
