// Bus factors and byte counts of every collective for 1..8 ranks, against values computed by
// hand from nccl-tests' conventions (doc/PERFORMANCE.md).
#include <fmt/format.h>
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

// all_reduce 2(n-1)/n; all_gather, reduce_scatter, alltoall, gather, scatter (n-1)/n;
// broadcast, reduce, sendrecv 1.
const Expect kFactors[] = {
    {"all_reduce", {0, 1.0, 4.0 / 3, 1.5, 1.6, 5.0 / 3, 12.0 / 7, 1.75}},
    {"all_gather", {0, 0.5, 2.0 / 3, 0.75, 0.8, 5.0 / 6, 6.0 / 7, 0.875}},
    {"reduce_scatter", {0, 0.5, 2.0 / 3, 0.75, 0.8, 5.0 / 6, 6.0 / 7, 0.875}},
    {"alltoall", {0, 0.5, 2.0 / 3, 0.75, 0.8, 5.0 / 6, 6.0 / 7, 0.875}},
    {"broadcast", {1, 1, 1, 1, 1, 1, 1, 1}},
    {"reduce", {1, 1, 1, 1, 1, 1, 1, 1}},
    {"sendrecv", {1, 1, 1, 1, 1, 1, 1, 1}},
    {"gather", {0, 0.5, 2.0 / 3, 0.75, 0.8, 5.0 / 6, 6.0 / 7, 0.875}},
    {"scatter", {0, 0.5, 2.0 / 3, 0.75, 0.8, 5.0 / 6, 6.0 / 7, 0.875}},
};

// Records what a row's launch asks of NCCL, with buffer offsets relative to the call's buffers.
class RecordingCollectives : public fb::Collectives {
 public:
  RecordingCollectives(const char* send, const char* recv) : send_(send), recv_(recv) {}
  std::vector<std::string> calls;
  void all_reduce(const fb::CollectiveCall& /*c*/) override { calls.emplace_back("all_reduce"); }
  void all_gather(const fb::CollectiveCall& /*c*/) override { calls.emplace_back("all_gather"); }
  void reduce_scatter(const fb::CollectiveCall& /*c*/) override { calls.emplace_back("reduce_scatter"); }
  void broadcast(const fb::CollectiveCall& /*c*/) override { calls.emplace_back("broadcast"); }
  void reduce(const fb::CollectiveCall& /*c*/) override { calls.emplace_back("reduce"); }
  void send(const fb::CollectiveCall& c, int peer) override {
    calls.push_back(
        fmt::format("send {} from send+{} to {}", c.count, static_cast<const char*>(c.send) - send_, peer));
  }
  void recv(const fb::CollectiveCall& c, int peer) override {
    calls.push_back(
        fmt::format("recv {} into recv+{} from {}", c.count, static_cast<char*>(c.recv) - recv_, peer));
  }
  void group_start() override { calls.emplace_back("group_start"); }
  void group_end() override { calls.emplace_back("group_end"); }

 private:
  const char* send_;
  const char* recv_;
};

// The calls rank `rank` of 3 makes for 4 floats (16 bytes) per rank with root 1.
std::vector<std::string> launched(const char* collective, int rank) {
  std::vector<char> send(48);
  std::vector<char> recv(48);
  RecordingCollectives rec(send.data(), recv.data());
  const fb::CollectiveCall call{0, rank,   3, send.data(), recv.data(), 4, fb::DType::float32, fb::RedOp::sum,
                                1, nullptr};
  fb::collective(collective).launch(rec, call);
  return rec.calls;
}

}  // namespace

TEST(CollectiveSpec, GatherAndScatterAreGroupedSendsAndReceivesAtTheRoot) {
  using V = std::vector<std::string>;
  EXPECT_EQ(launched("gather", 1),
            (V{"group_start", "send 4 from send+0 to 1", "recv 4 into recv+0 from 0",
               "recv 4 into recv+16 from 1", "recv 4 into recv+32 from 2", "group_end"}));
  EXPECT_EQ(launched("gather", 2), (V{"group_start", "send 4 from send+0 to 1", "group_end"}));
  EXPECT_EQ(launched("scatter", 1),
            (V{"group_start", "send 4 from send+0 to 0", "send 4 from send+16 to 1",
               "send 4 from send+32 to 2", "recv 4 into recv+0 from 1", "group_end"}));
  EXPECT_EQ(launched("scatter", 0), (V{"group_start", "recv 4 into recv+0 from 1", "group_end"}));
}

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

// nccl-tests' gather and scatter: per-rank count floor(c/n) rounded down to whole 16-byte blocks;
// the reported size is that share times n (the root's whole buffer).
TEST(CollectiveSpec, GatherAndScatterCountsRoundToSixteenByteBlocks) {
  struct Case {
    std::uint64_t bytes;
    std::size_t elem;
    int n;
    std::size_t per;             // hand-computed per-rank count
    std::uint64_t reported;      // bytes
    std::size_t all_gather_per;  // all_gather's, unaligned, for contrast
  };
  const Case cases[] = {
      {1ULL << 30, 4, 8, 33554432, 1ULL << 30, 33554432},  // 1 GiB float: already aligned
      {1048576 + 4, 4, 3, 87380, 1048560, 87381},          // 262145 floats / 3 = 87381 -> 87380
      {1000, 1, 3, 320, 960, 333},                         // int8: 333 -> 320 (20 x 16 B)
      {100, 2, 2, 24, 96, 25},                             // half: 25 -> 24 (3 x 16 B)
      {40, 8, 2, 2, 32, 2},                                // double: 2 (one 16-byte block)
      {1048576, 1, 8, 131072, 1048576, 131072},            // fp8 1 MiB on 8 ranks
      {31, 1, 2, 0, 0, 15},                                // 15 B per rank: no whole block, skipped
  };
  for (const auto& c : cases) {
    const std::size_t total = c.bytes / c.elem;
    const auto g = fb::collective("gather").counts(total, c.n, c.elem);
    EXPECT_EQ(g.param, c.per) << c.bytes;
    EXPECT_EQ(g.send, c.per) << c.bytes;
    EXPECT_EQ(g.recv, c.per * c.n) << c.bytes;
    EXPECT_TRUE(g.send_inside_recv);  // in-place: rank r sends from recv + r * count
    EXPECT_FALSE(g.recv_inside_send);
    EXPECT_EQ(g.reported_elements() * c.elem, c.reported) << c.bytes;
    const auto s = fb::collective("scatter").counts(total, c.n, c.elem);
    EXPECT_EQ(s.param, c.per) << c.bytes;
    EXPECT_EQ(s.send, c.per * c.n) << c.bytes;
    EXPECT_EQ(s.recv, c.per) << c.bytes;
    EXPECT_TRUE(s.recv_inside_send);  // in-place: rank r receives into send + r * count
    EXPECT_FALSE(s.send_inside_recv);
    EXPECT_EQ(s.reported_elements() * c.elem, c.reported) << c.bytes;
    EXPECT_EQ(fb::collective("all_gather").counts(total, c.n, c.elem).param, c.all_gather_per) << c.bytes;
  }
}

TEST(CollectiveSpec, RootedAndReducingFlags) {
  EXPECT_TRUE(fb::collective("reduce").rooted);
  EXPECT_TRUE(fb::collective("broadcast").rooted);
  EXPECT_FALSE(fb::collective("all_reduce").rooted);
  EXPECT_TRUE(fb::collective("reduce_scatter").reduces);
  EXPECT_FALSE(fb::collective("all_gather").reduces);
  EXPECT_FALSE(fb::collective("alltoall").in_place_supported);
  for (const char* rooted : {"gather", "scatter"}) {
    const auto& spec = fb::collective(rooted);
    EXPECT_TRUE(spec.rooted) << rooted;
    EXPECT_FALSE(spec.reduces) << rooted;
    EXPECT_TRUE(spec.in_place_supported) << rooted;  // nccl-tests runs and checks both
    EXPECT_TRUE(spec.single_node_algos.empty()) << rooted;
    EXPECT_TRUE(spec.tuner_type.empty()) << rooted;
  }
}

TEST(CollectiveSpec, AlgorithmsNcclOffersOnOneNode) {
  const auto algos = [](const char* name) {
    const auto a = fb::collective(name).single_node_algos;
    return std::vector<std::string>(a.begin(), a.end());
  };
  EXPECT_EQ(algos("all_reduce"), (std::vector<std::string>{"Ring", "Tree"}));
  for (const char* ring : {"all_gather", "reduce_scatter", "broadcast", "reduce"})
    EXPECT_EQ(algos(ring), std::vector<std::string>{"Ring"}) << ring;
  for (const char* none : {"alltoall", "sendrecv", "gather", "scatter"})
    EXPECT_TRUE(algos(none).empty()) << none;
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
