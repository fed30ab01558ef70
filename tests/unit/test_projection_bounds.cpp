// The bound of an all_reduce over k GPUs that a projection holds a TP without its own curve to
// (engine/commands/projection_bounds, docs/projection.md "Communication"): the ring ceiling of the best
// k-GPU subset of the host's topology (8 x MI300X: 48 GB/s for 2, 144 for 4, 336 for 8, docs/model.md),
// the product's xGMI mesh where no topology was read, across hosts the network's measured or expected
// figure, and, where nothing bounds it, the words that name the flag that would.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "analyse/expect/ceilings.hpp"
#include "engine/commands/projection_bounds.hpp"
#include "golden.hpp"
#include "ingest/import_file.hpp"
#include "nic_fixtures.hpp"

namespace {

fb::Result imported(const std::string& name, const fb::ImportOptions& o = {}) {
  return fb::load_result_or_output(std::string(FB_FIXTURE_DIR) + "/imports/" + name, o);
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST(ProjectionBounds, Mi300xSubsetsHeldToTheirOwnRingCeilings) {
  const auto r = result_fixture("synthetic-mi300x8.json");  // the topology of tests/fixtures/topo/mi300x8
  const auto b = fb::projection_bounds(r, {2, 4, 8}, 0);
  EXPECT_DOUBLE_EQ(b.at(2).busbw_gbps, 48.0);   // one xGMI link at RCCL's 48 GB/s
  EXPECT_DOUBLE_EQ(b.at(4).busbw_gbps, 144.0);  // three links each
  EXPECT_DOUBLE_EQ(b.at(8).busbw_gbps, 336.0);
  EXPECT_EQ(b.at(2).kind, "subset_ceiling");
  EXPECT_EQ(b.at(4).placement, (std::vector<int>{0, 1, 2, 3}));  // every subset alike: the lowest GPUs
  EXPECT_TRUE(
      has(b.at(4).source, "the best 4-GPU subset of the host's topology (the highest of its 70 subsets)"))
      << b.at(4).source;
}

TEST(ProjectionBounds, PcieHostTakesItsBestPlacedSubset) {
  // 8 x L40S on PCIe: the best pair is the one whose path ceiling is highest, said with its GPUs.
  const auto r = result_fixture("synthetic-pcie8.json");
  const auto b = fb::projection_bounds(r, {2, 8}, 0);
  double best_pair = 0;
  for (const auto& p : r.topology->pairs) best_pair = std::max(best_pair, fb::pair_sm_ceiling(p).gbps);
  EXPECT_DOUBLE_EQ(b.at(2).busbw_gbps, best_pair);
  ASSERT_EQ(b.at(2).placement.size(), 2u);
  EXPECT_DOUBLE_EQ(fb::ring_ceiling(*r.topology, b.at(2).placement).gbps, best_pair);
  EXPECT_DOUBLE_EQ(b.at(8).busbw_gbps, fb::ring_ceiling(*r.topology, {0, 1, 2, 3, 4, 5, 6, 7}).gbps);
  EXPECT_LE(b.at(8).busbw_gbps, b.at(2).busbw_gbps);  // never a smaller subset's figure for a larger one
}

TEST(ProjectionBounds, WithoutATopologyTheProductsMeshOrTheFlagThatReadsOne) {
  const auto mi300x =
      fb::projection_bounds(imported("rccl-tests-develop-448c4c7-mi300x8-rocm-blog.txt"), {2, 4}, 0);
  EXPECT_DOUBLE_EQ(mi300x.at(2).busbw_gbps, 48.0);
  EXPECT_DOUBLE_EQ(mi300x.at(4).busbw_gbps, 144.0);
  EXPECT_TRUE(has(mi300x.at(4).source, "no topology read")) << mi300x.at(4).source;
  EXPECT_TRUE(has(mi300x.at(4).source, "--topo FILE")) << mi300x.at(4).source;
  // The same output with rocm-smi's topology: the topology's own subsets give the same ceilings.
  fb::ImportOptions topo;
  topo.topo = std::string(FB_FIXTURE_DIR) + "/topo/mi300x8/rocm-smi-showtopo.txt";
  const auto read =
      fb::projection_bounds(imported("rccl-tests-develop-448c4c7-mi300x8-rocm-blog.txt", topo), {2, 4}, 0);
  EXPECT_DOUBLE_EQ(read.at(2).busbw_gbps, 48.0);
  EXPECT_DOUBLE_EQ(read.at(4).busbw_gbps, 144.0);
  EXPECT_TRUE(has(read.at(4).source, "host's topology")) << read.at(4).source;
  // NVIDIA GPUs without a topology: nothing bounds a subset; the words name --topo.
  const auto h100 = fb::projection_bounds(imported("nccl-tests-h100x16-2hosts-gcp-a3mega.txt"), {4}, 0);
  EXPECT_EQ(h100.at(4).busbw_gbps, 0);
  EXPECT_TRUE(has(h100.at(4).unknown, "pass --topo FILE")) << h100.at(4).unknown;
}

TEST(ProjectionBounds, BeyondOneHostTheNetworkNeverTheHostsFabric) {
  // One host of 8 MI300X, TP=16: its xGMI does not join two hosts. No network in the document:
  // refused with the flag, or the figure given.
  const auto r = imported("rccl-tests-develop-448c4c7-mi300x8-rocm-blog.txt");
  const auto none = fb::projection_bounds(r, {16}, 0);
  EXPECT_EQ(none.at(16).busbw_gbps, 0);
  EXPECT_TRUE(has(none.at(16).unknown, "TP=16 spans 2 hosts of 8 GPUs")) << none.at(16).unknown;
  EXPECT_TRUE(has(none.at(16).unknown, "--net-busbw GBPS")) << none.at(16).unknown;
  const auto given = fb::projection_bounds(r, {16}, 40);
  EXPECT_EQ(given.at(16).kind, "given");
  EXPECT_DOUBLE_EQ(given.at(16).busbw_gbps, 40);
}

TEST(ProjectionBounds, TheNetworksMeasuredFigureAcrossHosts) {
  // 2 hosts x 8 MI300X measured across hosts (AAC10): TP=32 takes that run's busbw at its largest size,
  // 357.4 GB/s: above one host's xGMI ring ceiling (336), which therefore does not cap it.
  const auto r = imported("rccl-tests-develop-448c4c7-mi300x16-2hosts-aac10.txt");
  const auto& run = r.runs.front();
  const auto b = fb::projection_bounds(r, {32}, 0).at(32);
  EXPECT_EQ(b.kind, "network_measured");
  const auto& largest =
      *std::max_element(run.points.begin(), run.points.end(),
                        [](const fb::Point& x, const fb::Point& y) { return x.bytes < y.bytes; });
  EXPECT_EQ(largest.bytes, 16ULL << 30);
  EXPECT_DOUBLE_EQ(b.busbw_gbps, largest.busbw_gbps);  // the first of the size: out of place
  EXPECT_TRUE(has(b.source, "all_reduce on 16 GPUs across 2 hosts")) << b.source;
}

TEST(ProjectionBounds, TheNetworksExpectedFigureFromTheNics) {
  // One host with 8 IB ports at 400 Gb/s beside its GPUs (ib8): a ring across hosts like it carries
  // 8 x 48 = 384 GB/s (analyse/expect/cross_host_expectation).
  const auto r = nic_result("ib8");
  const auto b = fb::projection_bounds(r, {16}, 0).at(16);
  ASSERT_GT(b.busbw_gbps, 0) << b.unknown;
  EXPECT_EQ(b.kind, "network_expected");
  EXPECT_DOUBLE_EQ(b.busbw_gbps, 384.0);
  EXPECT_TRUE(has(b.source, "every other host taken as this one")) << b.source;
}
