// p2p analysis: ceilings from the topology, efficiency, and the outlier rule.
#include <gtest/gtest.h>

#include "analyse/run/p2p_analysis.hpp"
#include "p2p_builders.hpp"

namespace {

fb::P2pMeasurement bw(const char* test, int src, int dst, double value) {
  return p2p_figure(test, src, dst, value);
}

// Four GPUs: 0-1, 0-2, 1-2 ... all NV18 (450 GB/s, ceilings 373.5 / 396) except 2-3 over PCIe PIX.
fb::Topology four_gpus() {
  fb::Topology t;
  for (int i = 0; i < 4; ++i) {
    fb::TopoGpu g;
    g.index = i;
    g.pcie = {32.0, 32.0, i == 3 ? 8 : 16, 16, 5, 5};
    t.gpus.push_back(g);
  }
  for (int a = 0; a < 4; ++a)
    for (int b = a + 1; b < 4; ++b) {
      fb::TopoPair p;
      p.a = a;
      p.b = b;
      const bool nv = !(a == 2 && b == 3);
      p.connection = nv ? fb::Connection::nvlink(18) : fb::Connection(fb::Connection::Kind::pix);
      p.wire_gbps = nv ? 450.0 : 63.0;
      p.sm_ceiling_gbps = nv ? 373.5 : 0;
      p.ce_ceiling_gbps = nv ? 396.0 : 0;
      t.pairs.push_back(p);
    }
  return t;
}

}  // namespace

TEST(P2pAnalysis, CeilingsByTestAndDirection) {
  std::vector<fb::P2pMeasurement> ms{bw("ce_read", 1, 0, 390), bw("sm_write", 0, 1, 370),
                                     bw("ce_bidir", 0, 1, 780), bw("h2d", -1, 3, 14),
                                     bw("ce_read", 2, 3, 50)};
  fb::attach_p2p_ceilings(ms, four_gpus());
  EXPECT_DOUBLE_EQ(ms[0].wire_gbps, 450.0);
  EXPECT_DOUBLE_EQ(ms[0].ceiling_gbps, 396.0);  // copy engine
  EXPECT_DOUBLE_EQ(ms[1].ceiling_gbps, 373.5);  // SM kernel
  EXPECT_DOUBLE_EQ(ms[2].wire_gbps, 900.0);     // both directions
  EXPECT_DOUBLE_EQ(ms[2].ceiling_gbps, 792.0);
  EXPECT_NEAR(ms[3].wire_gbps, 32.0 * 128 / 130 / 8 * 8, 1e-9);  // GPU3's Gen5 x8 link
  EXPECT_DOUBLE_EQ(ms[4].wire_gbps, 63.0);
  EXPECT_DOUBLE_EQ(ms[4].ceiling_gbps, 0.0);  // not measured for PCIe peers
}

TEST(P2pAnalysis, EfficiencyIsMeasuredOverWire) {
  auto m = bw("ce_read", 0, 1, 396);
  m.wire_gbps = 450;
  EXPECT_DOUBLE_EQ(fb::efficiency(m), 0.88);
  m.wire_gbps = 0;
  EXPECT_DOUBLE_EQ(fb::efficiency(m), 0.0);
  auto lat = bw("latency", 0, 1, 800);
  lat.unit = fb::P2pUnit::ns;
  lat.wire_gbps = 450;
  EXPECT_DOUBLE_EQ(fb::efficiency(lat), 0.0);
}

TEST(P2pAnalysis, SlowPairAmongItsClassIsFlagged) {
  const auto t = four_gpus();
  std::vector<fb::P2pMeasurement> ms{bw("ce_read", 0, 1, 395), bw("ce_read", 1, 0, 394),
                                     bw("ce_read", 0, 2, 396),
                                     bw("ce_read", 2, 0, 300),  // 24% below the NV18 median
                                     bw("ce_read", 2, 3, 50)};  // alone in its class: never compared to NV18
  const auto f = fb::check_p2p(ms, t, 0.10);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].code, "P2P_SLOW_PAIR");
  EXPECT_NE(f[0].evidence.find("ce_read GPU2 -> GPU0: 300.0 GB/s"), std::string::npos) << f[0].evidence;
  EXPECT_NE(f[0].evidence.find("NV18"), std::string::npos);
}

TEST(P2pAnalysis, NoiseWithinMarginIsSilent) {
  std::vector<fb::P2pMeasurement> ms{bw("sm_read", 0, 1, 376), bw("sm_read", 1, 0, 360),
                                     bw("sm_read", 0, 2, 370)};
  EXPECT_TRUE(fb::check_p2p(ms, four_gpus(), 0.10).empty());
}

TEST(P2pAnalysis, SlowHostLinkAndWrongDataAndStaging) {
  std::vector<fb::P2pMeasurement> ms{bw("h2d", -1, 0, 55), bw("h2d", -1, 1, 55), bw("h2d", -1, 3, 13)};
  ms[1].wrong = 7;
  auto staged = bw("ce_read", 2, 3, 20);
  staged.note = "staged through host memory: no peer access";
  ms.push_back(staged);
  const auto f = fb::check_p2p(ms, four_gpus(), 0.10);
  std::vector<std::string> codes;
  for (const auto& x : f) codes.push_back(x.code);
  EXPECT_EQ(codes, (std::vector<std::string>{"P2P_SLOW_HOST_LINK", "P2P_WRONG_DATA", "P2P_STAGED"}));
  EXPECT_EQ(f[1].severity, fb::Severity::error);
  EXPECT_NE(f[1].evidence.find("7 of 262144 words"), std::string::npos) << f[1].evidence;
}
