#include "bench/node_sampling.hpp"

#include <algorithm>
#include <numeric>
#include <random>
#include <set>

namespace fb {
namespace {

// Fisher-Yates over mt19937_64: std::shuffle's algorithm differs between standard libraries. The
// modulo's bias is below 2^-50 for any host count here.
void seeded_shuffle(std::vector<int>& values, std::mt19937_64& rng) {
  for (std::size_t i = values.size(); i > 1; --i) {
    const auto j = static_cast<std::size_t>(rng() % i);
    std::swap(values[i - 1], values[j]);
  }
}

std::vector<int> all_hosts(int hosts) {
  std::vector<int> order(static_cast<std::size_t>(std::max(hosts, 0)));
  std::iota(order.begin(), order.end(), 0);
  return order;
}

constexpr std::uint64_t kRetestStream = 0x9e3779b97f4a7c15ULL;  // a different stream than the passes'

}  // namespace

std::vector<PairRound> sampling_rounds(int hosts, const SamplingPlan& plan) {
  std::mt19937_64 rng(plan.seed);
  std::vector<PairRound> rounds;
  for (int pass = 0; pass < plan.passes; ++pass) {
    auto order = all_hosts(hosts);
    seeded_shuffle(order, rng);
    for (auto& round : circle_rounds(order, plan.peers)) rounds.push_back(std::move(round));
  }
  return rounds;
}

std::vector<PairRound> repair_rounds(const std::vector<int>& suspects, const std::vector<int>& partners,
                                     const std::vector<HostPair>& measured, const SamplingPlan& plan) {
  std::set<HostPair> met(measured.begin(), measured.end());
  std::mt19937_64 rng(plan.seed ^ kRetestStream);
  std::vector<PairRound> rounds;
  for (int r = 0; r < plan.retest_peers; ++r) {
    auto candidates = partners;
    seeded_shuffle(candidates, rng);
    PairRound round;
    for (const int s : suspects) {
      const auto fresh = std::find_if(candidates.begin(), candidates.end(), [&](int h) {
        return h != s && !met.contains({std::min(s, h), std::max(s, h)});
      });
      if (fresh == candidates.end()) continue;
      const HostPair pair{std::min(s, *fresh), std::max(s, *fresh)};
      round.push_back(pair);
      met.insert(pair);
      candidates.erase(fresh);  // one pair per host per round
    }
    if (!round.empty()) rounds.push_back(std::move(round));
  }
  return rounds;
}

}  // namespace fb
