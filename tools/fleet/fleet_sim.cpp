// The fleet simulator (docs/nodes.md, "The fleet simulator"): the slow-host search of `nodes` and
// the doctor run against seeded fleets of 16 to 4,096 hosts; prints recall, false names and pair
// time per scenario and size as the Markdown table docs/nodes.md holds.
//   fleet_sim [--hosts 16,64,256,1024,4096] [--trials 200] [--seed 1] [--noise 0.01]
//             [--host-spread 0.03] [--seconds-per-round 3]
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "fleet_trials.hpp"

namespace {

std::string cell(const fb::FleetScenario& s, const fb::FleetStats& st, double seconds_per_round) {
  const double seconds = st.mean_rounds() * seconds_per_round;
  std::string found = "-";
  if (s.slow_links > 0)
    found = fmt::format("link {:.0f}%", 100.0 * st.links_reported / std::max(st.links_planted, 1));
  else if (st.planted > 0)
    found = fmt::format("{:.1f}%", 100 * st.recall());
  return fmt::format("{} / {:.2f}% / {:.0f} s", found, 100 * st.false_share(), seconds);
}

std::string mode_cell(int hosts, const fb::TrialPlan& plan) {
  const auto t = fb::nodes_time(hosts, plan.seconds_per_round, plan.sampling, plan.budget_s);
  return t.mode == fb::NodesMode::sampling
             ? fmt::format("search, {}+ rounds", plan.sampling.passes * plan.sampling.peers)
             : fmt::format("round robin, {} rounds", t.rounds);
}

int simulate(int argc, char** argv) {
  CLI::App app{"The slow-host search of `fabricbench nodes` against simulated fleets"};
  std::vector<int> sizes{16, 64, 256, 1024, 4096};
  fb::TrialPlan plan;
  double noise = 0.01;
  double host_spread = 0.03;
  app.add_option("--hosts", sizes, "fleet sizes")->delimiter(',')->check(CLI::Range(4, 65536));
  app.add_option("--trials", plan.trials, "fleets per scenario and size")->check(CLI::Range(1, 100000));
  app.add_option("--seed", plan.seed, "the first fleet's seed");
  app.add_option("--noise", noise, "a pair's relative sd between runs")->check(CLI::Range(0.0, 0.5));
  app.add_option("--host-spread", host_spread, "healthy hosts' rates within +-this")
      ->check(CLI::Range(0.0, 0.5));
  app.add_option("--seconds-per-round", plan.seconds_per_round, "the cost of a round")
      ->check(CLI::Range(0.01, 600.0));
  CLI11_PARSE(app, argc, argv);

  std::string head = "| scenario |";
  std::string rule = "|---|";
  std::string modes = "| mode |";
  for (const int n : sizes) {
    head += fmt::format(" {} hosts |", n);
    rule += "---|";
    modes += fmt::format(" {} |", mode_cell(n, plan));
  }
  std::puts(head.c_str());
  std::puts(rule.c_str());
  std::puts(modes.c_str());
  const auto names = fb::standard_scenarios(sizes.front());
  for (std::size_t i = 0; i < names.size(); ++i) {
    std::string row = fmt::format("| {} |", names[i].name);
    for (const int n : sizes) {
      auto s = fb::standard_scenarios(n)[i];
      s.noise = noise;
      s.host_spread = host_spread;
      row += fmt::format(" {} |", cell(s, fb::run_trials(s, plan), plan.seconds_per_round));
    }
    std::puts(row.c_str());
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return simulate(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fleet_sim: %s\n", e.what());
    return 4;
  }
}
