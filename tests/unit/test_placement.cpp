// The placement planner on the topology fixtures: for each count, the groups an expert would pick.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "topo/placement.hpp"
#include "topology_fixtures.hpp"

namespace {

fb::Topology load(const std::string& name) { return load_topology_fixture(name); }

using G = std::vector<int>;

}  // namespace

TEST(Placement, PcieTwoSocketBestStaysUnderOneSwitchThenOneSocket) {
  const auto t = load("pcie8");
  EXPECT_EQ(fb::choose_gpus(t, 2, fb::Placement::best), (G{0, 1}));        // PIX pair
  EXPECT_EQ(fb::choose_gpus(t, 4, fb::Placement::best), (G{0, 1, 2, 3}));  // one socket, no SYS
  EXPECT_EQ(fb::choose_gpus(t, 8, fb::Placement::best), (G{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(fb::choose_gpus(t, 1, fb::Placement::best), (G{0}));
}

TEST(Placement, PcieTwoSocketWorstSpreadsOverSocketsAndSwitches) {
  const auto t = load("pcie8");
  EXPECT_EQ(fb::choose_gpus(t, 2, fb::Placement::worst), (G{0, 4}));  // across the sockets
  // Two per socket, each pair within a socket through the host bridge, not a switch.
  EXPECT_EQ(fb::choose_gpus(t, 4, fb::Placement::worst), (G{0, 2, 4, 6}));
}

TEST(Placement, NvswitchBestKeepsOneNumaNodeWorstSpans) {
  const auto t = load("nvswitch8");
  EXPECT_EQ(fb::choose_gpus(t, 4, fb::Placement::best), (G{0, 1, 2, 3}));
  EXPECT_EQ(fb::choose_gpus(t, 2, fb::Placement::worst), (G{0, 4}));
}

TEST(Placement, NvswitchAvoidsTheGpuWithLinksDown) {
  const auto t = load("nvswitch8-links-down");  // GPU 3 has 16 of 18 links
  // The other socket's four GPUs: full links and one NUMA node.
  EXPECT_EQ(fb::choose_gpus(t, 4, fb::Placement::best), (G{4, 5, 6, 7}));
  EXPECT_EQ(fb::choose_gpus(t, 2, fb::Placement::best), (G{0, 1}));
  const auto worst = fb::choose_gpus(t, 2, fb::Placement::worst);
  EXPECT_TRUE(std::find(worst.begin(), worst.end(), 3) != worst.end());
}

TEST(Placement, Mi300xMeshIsUniformSoNumaDecides) {
  const auto t = load("mi300x8");
  EXPECT_EQ(fb::choose_gpus(t, 4, fb::Placement::best), (G{0, 1, 2, 3}));
  EXPECT_EQ(fb::choose_gpus(t, 4, fb::Placement::worst), (G{0, 1, 4, 5}));
}

TEST(Placement, CountOutsideTheMachineIsAUsageError) {
  const auto t = load("pcie8");
  EXPECT_THROW(fb::choose_gpus(t, 9, fb::Placement::best), fb::Error);
  EXPECT_THROW(fb::choose_gpus(t, 0, fb::Placement::best), fb::Error);
}
