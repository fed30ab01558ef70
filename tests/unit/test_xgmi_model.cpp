// The xGMI model (docs/model.md, "The xGMI model") against hand-computed figures, and the
// topology, ceilings and verdicts it gives on the MI300X fixtures (tests/fixtures/topo/mi300x8,
// tests/fixtures/results/synthetic-mi300x8.json).
#include <gtest/gtest.h>

#include <algorithm>

#include "analyse/expect/ceilings.hpp"
#include "analyse/expect/expectations.hpp"
#include "analyse/judge.hpp"
#include "analyse/verdict/headline_figures.hpp"
#include "model/result_json.hpp"
#include "topo/link_rates.hpp"
#include "topology_fixtures.hpp"

namespace {

constexpr std::uint64_t kGi = 1ULL << 30;

const fb::Finding* find(const std::vector<fb::Finding>& f, const std::string& code) {
  const auto it = std::find_if(f.begin(), f.end(), [&](const auto& x) { return x.code == code; });
  return it == f.end() ? nullptr : &*it;
}

}  // namespace

TEST(XgmiModel, PerGenerationRates) {
  const auto* mi300x = fb::xgmi_product("AMD Instinct MI300X", "");
  ASSERT_NE(mi300x, nullptr);
  EXPECT_DOUBLE_EQ(mi300x->gbps_per_link, 64.0);  // 128 GB/s bidirectional per link
  EXPECT_DOUBLE_EQ(mi300x->rccl_gbps_per_link, 48.0);
  EXPECT_DOUBLE_EQ(mi300x->reach_fraction(), 0.75);  // 48 / 64
  EXPECT_EQ(mi300x->links_per_gpu, 7);
  EXPECT_EQ(mi300x->links_per_pair, 1);
  const auto* mi325x = fb::xgmi_product("", "0x74a5");
  ASSERT_NE(mi325x, nullptr);
  EXPECT_EQ(mi325x->name_contains, "MI325X");
  EXPECT_DOUBLE_EQ(mi325x->gbps_per_link * mi325x->links_per_gpu, 448.0);  // 7 x 64
  const auto* mi250x = fb::xgmi_product("", "0x7408");
  ASSERT_NE(mi250x, nullptr);
  EXPECT_DOUBLE_EQ(mi250x->gbps_per_link, 50.0);
  EXPECT_DOUBLE_EQ(mi250x->reach_fraction(), 0.72);  // 36 / 50
}

// 8 x MI300X: every ring runs over all of a GPU's links at once, so a GPU's ceiling is its
// links to the ring's other GPUs x 48 GB/s: 7 x 48 = 336 for 8, 3 x 48 = 144 for 4, 48 for 2.
TEST(XgmiModel, RingCeilingsOnTheMesh) {
  const auto t = load_topology_fixture("mi300x8");
  EXPECT_DOUBLE_EQ(fb::ring_ceiling(t, {0, 1, 2, 3, 4, 5, 6, 7}).gbps, 336.0);
  EXPECT_DOUBLE_EQ(fb::ring_ceiling(t, {0, 1, 2, 3}).gbps, 144.0);
  EXPECT_DOUBLE_EQ(fb::ring_ceiling(t, {2, 6}).gbps, 48.0);
  const auto pair = fb::pair_sm_ceiling(*t.find_pair(0, 7));
  EXPECT_DOUBLE_EQ(pair.gbps, 48.0);
  EXPECT_NE(pair.source.find("RCCL's model of each xGMI link"), std::string::npos) << pair.source;
}

// Without a topology read, the product's full mesh gives the same ceilings (the projection's bound of
// a k-GPU subset of another tool's output); MI250X's platform is no mesh: none.
TEST(XgmiModel, MeshRingCeilingsFromTheProductAlone) {
  const auto* mi300x = fb::xgmi_product("AMD Instinct MI300X", "");
  EXPECT_DOUBLE_EQ(mi300x->mesh_ring_gbps(2), 48.0);
  EXPECT_DOUBLE_EQ(mi300x->mesh_ring_gbps(4), 144.0);
  EXPECT_DOUBLE_EQ(mi300x->mesh_ring_gbps(8), 336.0);
  EXPECT_DOUBLE_EQ(mi300x->mesh_ring_gbps(9), 0.0);  // beyond the platform's 8
  EXPECT_DOUBLE_EQ(mi300x->mesh_ring_gbps(1), 0.0);
  EXPECT_DOUBLE_EQ(fb::xgmi_product("AMD Instinct MI355X", "")->mesh_ring_gbps(4), 3 * 57.6);
  EXPECT_DOUBLE_EQ(fb::xgmi_product("", "0x7408")->mesh_ring_gbps(2), 0.0);
}

TEST(XgmiModel, ExpectationsForEightMi300x) {
  const std::string gpu = "AMD Instinct MI300X";
  EXPECT_DOUBLE_EQ(fb::expected_for(gpu, 8, "all_reduce", kGi)->value, 314.7);
  // At exactly 8 GiB AMD's pass line (304, `-g 8`) is listed first and wins over the blog's 318.
  EXPECT_DOUBLE_EQ(fb::expected_for(gpu, 8, "all_reduce", 8 * kGi)->value, 304.0);
  EXPECT_EQ(fb::expected_for(gpu, 8, "all_reduce", 8 * kGi)->row.kind, fb::ExpectationKind::acceptance);
  EXPECT_DOUBLE_EQ(fb::expected_for(gpu, 8, "all_reduce", 12 * kGi)->value, 318.0);
  EXPECT_DOUBLE_EQ(fb::expected_for(gpu, 8, "all_reduce", 16 * kGi)->value, 319.0);
  EXPECT_NE(fb::expected_for(gpu, 8, "all_reduce", kGi)->source().find("mi300x-rccl-xgmi"),
            std::string::npos);
  EXPECT_FALSE(fb::expected_for(gpu, 4, "all_reduce", kGi));  // no published 4-GPU figure: no guess
}

// The synthetic result's busbw (45.7 GB/s at 4 GiB, invented from one pair's ceiling) is far below
// both the mesh ceiling (336) and AMD's figure for 1-8 GiB (314.7): both verdicts fire, with AMD's
// numbers.
TEST(XgmiModel, VerdictsOnTheSyntheticResult) {
  const auto r =
      fb::parse_result(read_fixture(std::string(FB_FIXTURE_DIR) + "/results/synthetic-mi300x8.json"));
  const auto headlines = fb::headline_figures(r);
  const auto ar = std::find_if(headlines.begin(), headlines.end(),
                               [](const auto& h) { return h.figure == "all_reduce busbw at 4 GiB"; });
  ASSERT_NE(ar, headlines.end());
  EXPECT_DOUBLE_EQ(ar->expected, 314.7);
  EXPECT_DOUBLE_EQ(ar->ceiling, 336.0);              // 7 x 64 x 0.75
  EXPECT_EQ(ar->percent_text(), "15% of expected");  // 45.723 / 314.7 = 14.5%
  const auto findings = fb::analyse_result(r);
  const auto* below = find(findings, "BUSBW_BELOW_EXPECTED");
  ASSERT_NE(below, nullptr);
  EXPECT_NE(below->evidence.find("GB/s (AMD ROCm blog mi300x-rccl-xgmi"), std::string::npos)
      << below->evidence;
  const auto* ceiling = find(findings, "BUSBW_BELOW_CEILING");
  ASSERT_NE(ceiling, nullptr);
  EXPECT_NE(ceiling->evidence.find("ceiling 336.0 GB/s"), std::string::npos) << ceiling->evidence;
}

// Today's links (issue 32): NVLink5 at NCCL's own model (SM100 40.1 of 50 GB/s per link, 721.8 per
// GPU, NVIDIA/nccl #1807) beside NVLink4's measured share, and the MI350X/MI355X xGMI.
TEST(LinkModels, NvlinkFiveIsNcclsModelAndSaysSo) {
  const auto* nv4 = fb::nvlink_generation(4);
  const auto* nv5 = fb::nvlink_generation(5);
  ASSERT_NE(nv4, nullptr);
  ASSERT_NE(nv5, nullptr);
  EXPECT_NEAR(18 * nv5->data_gbps * nv5->sm_fraction, 721.8, 1e-9);
  EXPECT_NEAR(18 * nv5->nccl_model_gbps, 721.8, 1e-9);
  EXPECT_TRUE(nv5->sm_share_is_nccls_model());
  EXPECT_FALSE(nv4->sm_share_is_nccls_model());  // NVLink4's share is measured (373.5 of 450)
  EXPECT_DOUBLE_EQ(18 * nv4->nccl_model_gbps, 360.0);
  fb::TopoPair p;
  p.connection = fb::Connection::nvlink(18);
  p.links = 18;
  p.link_gbps = 50.0;
  p.wire_gbps = 900.0;
  p.sm_ceiling_gbps = p.wire_gbps * nv5->sm_fraction;
  const auto c = fb::pair_sm_ceiling(p);
  EXPECT_NEAR(c.gbps, 721.8, 1e-9);
  EXPECT_NE(c.source.find("NCCL's model of an NVLink5 link, 40.1 of 50 GB/s (not measured"),
            std::string::npos)
      << c.source;
}

TEST(LinkModels, Mi355xXgmi) {
  for (const char* name : {"AMD Instinct MI355X", "AMD Instinct MI350X"}) {
    const auto* x = fb::xgmi_product(name, "");
    ASSERT_NE(x, nullptr) << name;
    EXPECT_EQ(x->gfx, "gfx950");
    EXPECT_DOUBLE_EQ(x->gbps_per_link * 2, 153.6);  // AMD: 153.6 GB/s bidirectional per link
    EXPECT_NEAR(x->reach_fraction(), 0.75, 1e-12);  // MI300X's share, not measured on MI355X
    EXPECT_NEAR(x->rccl_gbps_per_link * x->links_per_gpu, 403.2, 1e-9);  // above AMD's 350 pass line
  }
  EXPECT_EQ(fb::xgmi_product("AMD Instinct MI300X", "")->name_contains, "MI300X");
  EXPECT_EQ(fb::xgmi_product("", "0x7408")->name_contains, "MI250");  // ids still find their product
}
