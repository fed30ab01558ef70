// The ROCm SMI reader against a stand-in library (tests/helpers/fake_rocm_smi.cpp, loaded with
// dlopen as librocm_smi64 is), the topology it builds, and the PCIe routing check on the
// synthetic MI300X sysfs trees (tests/fixtures/topo/mi300x8-rc and mi300x8-misrouted).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "topo/rocm_smi_library.hpp"
#include "topo/topology_checks.hpp"
#include "topology_fixtures.hpp"

namespace {

// Sets an environment variable for one test and removes it after.
struct ScopedEnv {
  const char* name;
  ScopedEnv(const char* n, const char* value) : name(n) { ::setenv(n, value, 1); }
  ~ScopedEnv() { ::unsetenv(name); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;
};

fb::RocmSmiTopo read_fake() {
  std::string why;
  auto t = fb::read_rocm_smi_library(FB_FAKE_ROCM_SMI, why);
  if (!t) ADD_FAILURE() << why;
  return t.value_or(fb::RocmSmiTopo{});
}

fb::Topology topology_from_fake(const std::string& sysfs_fixture) {
  fb::TopologyInputs in;
  in.sysfs = fb::read_sysfs(std::string(FB_FIXTURE_DIR) + "/topo/" + sysfs_fixture);
  in.amd = read_fake();
  return fb::build_topology(in);
}

std::vector<fb::Finding> with_code(const std::vector<fb::Finding>& f, const std::string& code) {
  std::vector<fb::Finding> out;
  std::copy_if(f.begin(), f.end(), std::back_inserter(out), [&](const auto& x) { return x.code == code; });
  return out;
}

}  // namespace

TEST(RocmSmi, BdfidToBusId) {
  // domain 0x1 (bits 63-32), bus 0xc1 (15-8), device 0x1f (7-3), function 7 (2-0)
  EXPECT_EQ(fb::bdfid_to_bus_id((1ULL << 32) | (0xc1ULL << 8) | (0x1fULL << 3) | 7), "0001:c1:1f.7");
  EXPECT_EQ(fb::bdfid_to_bus_id(0x2300), "0000:23:00.0");
}

TEST(RocmSmi, ReadsEveryFigureFromTheLibrary) {
  const auto t = read_fake();
  ASSERT_EQ(t.n, 8);
  EXPECT_TRUE(t.from_library());
  EXPECT_NE(t.source.find("ROCm SMI library"), std::string::npos);
  EXPECT_EQ(t.bus_ids[0], "0000:03:00.0");
  EXPECT_EQ(t.bus_ids[7], "0000:e3:00.0");
  EXPECT_EQ(t.names[2], "AMD Instinct MI300X");
  EXPECT_EQ(t.numa_node, (std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1}));
  EXPECT_EQ(t.pcie_gen[5], 5);  // 32 GT/s
  EXPECT_EQ(t.pcie_width[5], 16);
  EXPECT_EQ(t.link_type[1][6], "XGMI");
  EXPECT_EQ(t.hops[1][6], 1);
  EXPECT_EQ(t.weight[1][6], 15);
  EXPECT_DOUBLE_EQ(t.xgmi_min_mbps[1][6], 50000);
  EXPECT_DOUBLE_EQ(t.xgmi_max_mbps[1][6], 50000);
  EXPECT_EQ(t.p2p[6][1], 1);
  EXPECT_EQ(t.link_type[3][3], "0");  // the diagonal, as rocm-smi prints it
}

TEST(RocmSmi, LinkCountIsReadFromTheBandwidthAndSaidSo) {
  const auto t = topology_from_fake("mi300x8-rc");
  ASSERT_EQ(t.pairs.size(), 28u);
  for (const auto& p : t.pairs) {
    EXPECT_EQ(p.connection.to_string(), "XGMI");
    EXPECT_EQ(p.links, 1);
    EXPECT_DOUBLE_EQ(p.wire_gbps, 64.0);        // 1 link x 64 GB/s (MI300X product brief)
    EXPECT_DOUBLE_EQ(p.sm_ceiling_gbps, 48.0);  // 1 link x RCCL's 48 GB/s
    EXPECT_NE(p.limit.find("read from ROCm SMI's xGMI bandwidth 50000-50000 MB/s"), std::string::npos)
        << p.limit;
    EXPECT_EQ(p.p2p_detail, "ROCm SMI: P2P accessible yes/yes");
  }
}

// rocm-smi says 1 hop for a peer reached through another GPU; the driver's max bandwidth of 0
// says what the hop count hides (rocm-systems #5763, hwloc #775).
TEST(RocmSmi, IndirectPathIsToldByBandwidthNotHops) {
  const ScopedEnv env("FAKE_RSMI_INDIRECT", "2,5");
  const auto t = topology_from_fake("mi300x8-rc");
  const auto* p = t.find_pair(2, 5);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->connection.to_string(), "XGMI");
  EXPECT_EQ(p->links, 0);
  EXPECT_DOUBLE_EQ(p->wire_gbps, 0.0);
  EXPECT_NE(p->limit.find("indirect xGMI path"), std::string::npos) << p->limit;
  EXPECT_NE(p->limit.find("hop count 1 is not trusted"), std::string::npos) << p->limit;
  EXPECT_EQ(t.find_pair(2, 4)->links, 1);
}

TEST(RocmSmi, FailuresAreSaidNotThrown) {
  std::string why;
  EXPECT_FALSE(fb::read_rocm_smi_library("/nonexistent/librocm_smi64.so.1", why));
  EXPECT_NE(why.find("not found"), std::string::npos) << why;
  const ScopedEnv env("FAKE_RSMI_INIT_FAIL", "1");
  EXPECT_FALSE(fb::read_rocm_smi_library(FB_FAKE_ROCM_SMI, why));
  EXPECT_NE(why.find("rsmi_init: RSMI_STATUS_INIT_ERROR"), std::string::npos) << why;
}

// The text fallback says the link count is inferred (rocm-smi prints the link type only).
TEST(RocmSmi, TextFallbackSaysTheLinkCountIsInferred) {
  const auto t = load_topology_fixture("mi300x8");
  ASSERT_FALSE(t.pairs.empty());
  EXPECT_EQ(t.pairs[0].links, 1);
  EXPECT_NE(t.pairs[0].limit.find("link count inferred"), std::string::npos) << t.pairs[0].limit;
}

TEST(PcieRouting, MisroutedGpuIsFlagged) {
  const auto f =
      with_code(fb::check_topology(load_topology_fixture("mi300x8-misrouted")), "TOPO_PCIE_ROOT_UNEVEN");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, fb::Severity::warning);
  EXPECT_NE(f[0].evidence.find("pci0000:80 carries 2 GPUs: GPU4 (0000:83:00.0), GPU5 (0000:93:00.0)"),
            std::string::npos)
      << f[0].evidence;
  EXPECT_NE(f[0].evidence.find("the other 6 root complexes with GPUs carry 1 each"), std::string::npos)
      << f[0].evidence;
}

TEST(PcieRouting, EvenLayoutsAreNotFlagged) {
  for (const char* name : {"mi300x8-rc", "mi300x8", "nvswitch8", "pcie8", "h200x2"})
    EXPECT_TRUE(with_code(fb::check_topology(load_topology_fixture(name)), "TOPO_PCIE_ROOT_UNEVEN").empty())
        << name;
}
