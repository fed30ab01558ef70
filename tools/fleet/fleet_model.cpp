#include "fleet_model.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <numeric>

namespace fb {
namespace {

// Distinct hosts drawn without replacement (a partial Fisher-Yates over our own draws).
std::vector<int> draw_hosts(int hosts, int count, std::mt19937_64& rng) {
  std::vector<int> all(static_cast<std::size_t>(hosts));
  std::iota(all.begin(), all.end(), 0);
  count = std::min(count, hosts);
  for (int i = 0; i < count; ++i) {
    const auto left = static_cast<std::uint64_t>(hosts - i);
    const auto j = static_cast<std::size_t>(i) + static_cast<std::size_t>(rng() % left);
    std::swap(all[static_cast<std::size_t>(i)], all[j]);
  }
  all.resize(static_cast<std::size_t>(count));
  return all;
}

}  // namespace

FleetModel::FleetModel(const FleetScenario& scenario, std::uint64_t seed) : scenario_(scenario), rng_(seed) {
  const int n = scenario.hosts;
  rate_.resize(static_cast<std::size_t>(n));
  for (auto& r : rate_) r = 1.0 + scenario.host_spread * (2 * uniform() - 1);
  flaky_.assign(static_cast<std::size_t>(n), false);
  const int faulty = scenario.slow_hosts + scenario.flaky_hosts + 2 * scenario.slow_links;
  const auto picked = draw_hosts(n, faulty, rng_);
  for (std::size_t i = 0; i < picked.size(); ++i) {
    const int h = picked[i];
    const auto index = static_cast<int>(i);
    if (index < scenario.slow_hosts) {
      rate_[static_cast<std::size_t>(h)] = 1.0 - scenario.slow_by;
      slow_.push_back(h);
    } else if (index < scenario.slow_hosts + scenario.flaky_hosts) {
      flaky_[static_cast<std::size_t>(h)] = true;
      slow_.push_back(h);
    } else if ((index - scenario.slow_hosts - scenario.flaky_hosts) % 2 == 1) {
      const int other = picked[i - 1];
      links_.emplace_back(std::min(h, other), std::max(h, other));
    }
  }
  std::sort(slow_.begin(), slow_.end());
}

double FleetModel::uniform() { return static_cast<double>(rng_() >> 11U) * 0x1.0p-53; }

// Box-Muller over our own uniform draws.
double FleetModel::normal() {
  const double u1 = 1.0 - uniform();  // (0, 1]: the logarithm stays finite
  const double u2 = uniform();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2 * std::numbers::pi * u2);
}

double FleetModel::host_rate(int host, bool flaky_round) const {
  const auto h = static_cast<std::size_t>(host);
  return flaky_[h] && flaky_round ? rate_[h] * (1.0 - scenario_.flaky_by) : rate_[h];
}

double FleetModel::link(int a, int b) const {
  const HostPair pair{std::min(a, b), std::max(a, b)};
  return std::find(links_.begin(), links_.end(), pair) != links_.end() ? scenario_.link_factor : 1.0;
}

bool FleetModel::measure(const std::vector<PairRound>& rounds, int first, std::vector<PairFigure>& figures) {
  for (std::size_t r = 0; r < rounds.size(); ++r) {
    const int number = first + static_cast<int>(r);
    for (const auto& [a, b] : rounds[r]) {
      // A flaky host is slow in a round with probability flaky_rounds, drawn for each of its pairs
      // (one a round).
      const double ra =
          host_rate(a, flaky_[static_cast<std::size_t>(a)] && uniform() < scenario_.flaky_rounds);
      const double rb =
          host_rate(b, flaky_[static_cast<std::size_t>(b)] && uniform() < scenario_.flaky_rounds);
      const double share = std::min(ra, rb) * link(a, b) * (1.0 + scenario_.noise * normal());
      figures.push_back({a, b, scenario_.nominal_gbs * share, number});
    }
  }
  return true;
}

}  // namespace fb
