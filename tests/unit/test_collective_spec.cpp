// Bus factors and byte counts of every collective for 1..8 ranks, against values computed by
// hand from nccl-tests' conventions (doc/PERFORMANCE.md).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bench/collective_spec.hpp"
#include "core/error.hpp"

namespace {

struct Expect {
  const char* name;
  double factor[8];  // n = 1..8
};

// all_reduce 2(n-1)/n; gathers and alltoall (n-1)/n; broadcast, reduce, sendrecv 1.
const Expect kFactors[] = {
    {"all_reduce", {0, 1.0, 4.0 / 3, 1.5, 1.6, 5.0 / 3, 12.0 / 7, 1.75}},
    {"all_gather", {0, 0.5, 2.0 / 3, 0.75, 0.8, 5.0 / 6, 6.0 / 7, 0.875}},
    {"reduce_scatter", {0, 0.5, 2.0 / 3, 0.75, 0.8, 5.0 / 6, 6.0 / 7, 0.875}},
    {"alltoall", {0, 0.5, 2.0 / 3, 0.75, 0.8, 5.0 / 6, 6.0 / 7, 0.875}},
    {"broadcast", {1, 1, 1, 1, 1, 1, 1, 1}},
    {"reduce", {1, 1, 1, 1, 1, 1, 1, 1}},
    {"sendrecv", {1, 1, 1, 1, 1, 1, 1, 1}},
};

}  // namespace

TEST(CollectiveSpec, BusFactorsForOneToEightRanks) {
  for (const auto& e : kFactors) {
    const auto& spec = fb::collective(e.name);
    for (int n = 1; n <= 8; ++n)
      EXPECT_NEAR(spec.bus_factor(n), e.factor[n - 1], 1e-12) << e.name << " n=" << n;
  }
}

TEST(CollectiveSpec, EveryCollectiveHasAnExpectation) {
  EXPECT_EQ(fb::all_collectives().size(), std::size(kFactors));
}

TEST(CollectiveSpec, CountsForOneGiBOfFloatOnOneToEightRanks) {
  const std::size_t total = (1ULL << 30) / 4;  // 268435456 floats
  for (int n = 1; n <= 8; ++n) {
    const std::size_t per = total / n;  // rounded down as nccl-tests does
    const auto ar = fb::collective("all_reduce").counts(total, n, 4);
    EXPECT_EQ(ar.send, total);
    EXPECT_EQ(ar.recv, total);
    EXPECT_EQ(ar.param, total);
    const auto ag = fb::collective("all_gather").counts(total, n, 4);
    EXPECT_EQ(ag.send, per) << n;
    EXPECT_EQ(ag.recv, per * n) << n;
    EXPECT_EQ(ag.param, per) << n;
    EXPECT_TRUE(ag.send_inside_recv);
    const auto rs = fb::collective("reduce_scatter").counts(total, n, 4);
    EXPECT_EQ(rs.send, per * n) << n;
    EXPECT_EQ(rs.recv, per) << n;
    EXPECT_EQ(rs.param, per) << n;
    EXPECT_TRUE(rs.recv_inside_send);
    const auto a2a = fb::collective("alltoall").counts(total, n, 4);
    EXPECT_EQ(a2a.send, per * n) << n;
    EXPECT_EQ(a2a.recv, per * n) << n;
    EXPECT_EQ(a2a.param, per) << n;
    for (const char* same : {"broadcast", "reduce", "sendrecv"}) {
      const auto c = fb::collective(same).counts(total, n, 4);
      EXPECT_EQ(c.send, total);
      EXPECT_EQ(c.recv, total);
      EXPECT_EQ(c.param, total);
    }
  }
}

TEST(CollectiveSpec, ReportedBytesRoundDownToWholeElementsPerRank) {
  // 1 MiB + 4 bytes of float on 3 ranks: 262145 elements -> 87381 per rank -> 262143 reported.
  const auto c = fb::collective("all_gather").counts((1048576 + 4) / 4, 3, 4);
  EXPECT_EQ(c.param, 87381u);
  EXPECT_EQ(c.reported_elements() * 4, 262143u * 4);
  // Fewer elements than ranks: nothing to run.
  EXPECT_EQ(fb::collective("reduce_scatter").counts(7, 8, 4).reported_elements(), 0u);
}

TEST(CollectiveSpec, RootedAndReducingFlags) {
  EXPECT_TRUE(fb::collective("reduce").rooted);
  EXPECT_TRUE(fb::collective("broadcast").rooted);
  EXPECT_FALSE(fb::collective("all_reduce").rooted);
  EXPECT_TRUE(fb::collective("reduce_scatter").reduces);
  EXPECT_FALSE(fb::collective("all_gather").reduces);
  EXPECT_FALSE(fb::collective("alltoall").in_place_supported);
}

TEST(CollectiveSpec, AlgorithmsNcclOffersOnOneNode) {
  const auto algos = [](const char* name) {
    const auto a = fb::collective(name).single_node_algos;
    return std::vector<std::string>(a.begin(), a.end());
  };
  EXPECT_EQ(algos("all_reduce"), (std::vector<std::string>{"Ring", "Tree"}));
  for (const char* ring : {"all_gather", "reduce_scatter", "broadcast", "reduce"})
    EXPECT_EQ(algos(ring), std::vector<std::string>{"Ring"}) << ring;
  for (const char* none : {"alltoall", "sendrecv"}) EXPECT_TRUE(algos(none).empty()) << none;
}

TEST(CollectiveSpec, UnknownNameIsAUsageErrorListingTheValidOnes) {
  try {
    fb::collective("allreduce");
    FAIL();
  } catch (const fb::Error& e) {
    EXPECT_EQ(e.code(), fb::ExitCode::usage);
    EXPECT_NE(std::string(e.what()).find("all_reduce"), std::string::npos);
  }
}
