#pragma once
// A fleet of N hosts as the slow-host search sees it (docs/nodes.md, "The fleet simulator"): a pair
// runs at the slower of its two hosts' rates times its link's factor, off by the noise of one
// measurement. Seeded with our own draws on std::mt19937_64 (whose output the standard fixes; the
// standard's distributions differ between libraries), so a seed gives the same fleet everywhere.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "analyse/hosts/node_ranking.hpp"
#include "bench/node_schedule.hpp"

namespace fb {

struct FleetScenario {
  std::string name;
  int hosts = 0;
  // A pair's figure moves this much (relative sd) between runs: all_reduce 1 GiB on 2 x H200 read
  // 328.0-333.5 GB/s in four runs, +-1% (docs/verdicts.md); the 6 healthy pairs of 4 fake hosts
  // 18.55-18.66 ms (docs/fake-hosts.md).
  double noise = 0.01;
  // Healthy hosts' own rates, uniform within +-this: machines of one kind differ by up to +-3%
  // (8 x H100 rings 360-370 GB/s, 8 x MI300X 310-330: docs/verdicts.md).
  double host_spread = 0.03;
  int slow_hosts = 0;
  double slow_by = 0.10;  // each slow host this share slower (0.03-0.50)
  int flaky_hosts = 0;
  double flaky_by = 0.20;         // a flaky host this share slower ...
  double flaky_rounds = 1.0 / 3;  // ... in this share of the rounds, drawn per round
  int slow_links = 0;             // pairs of otherwise healthy hosts whose path is slow
  double link_factor = 0.70;      // a slow link's factor on its pair
  double nominal_gbs = 48.0;      // a healthy pair's busbw (the ranking's figures are in GB/s)
};

// One fleet drawn from a scenario: which hosts are slow, flaky or joined by a slow link.
class FleetModel {
 public:
  FleetModel(const FleetScenario& scenario, std::uint64_t seed);

  // The figure of every pair of `rounds`, numbered from `first` (MeasureRounds' form).
  bool measure(const std::vector<PairRound>& rounds, int first, std::vector<PairFigure>& figures);

  [[nodiscard]] const std::vector<int>& slow() const { return slow_; }         // slow and flaky hosts
  [[nodiscard]] const std::vector<HostPair>& links() const { return links_; }  // slow links

 private:
  double host_rate(int host, bool flaky_round) const;
  double link(int a, int b) const;
  double normal();
  double uniform();

  FleetScenario scenario_;
  std::mt19937_64 rng_;
  std::vector<double> rate_;  // each host's own rate (1 = nominal)
  std::vector<bool> flaky_;
  std::vector<int> slow_;
  std::vector<HostPair> links_;
};

}  // namespace fb
