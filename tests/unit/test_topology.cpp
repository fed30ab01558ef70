// Topology from fixtures: the real 2 x H200 capture (sysfs tree, NVML readout, nvidia-smi topo -m)
// and synthetic machines in the same formats (tests/fixtures/topo/make_synthetic.py).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.hpp"
#include "golden.hpp"
#include "model/topology_json.hpp"
#include "report/topology_console.hpp"
#include "topo/link_rates.hpp"
#include "topo/pcie_class.hpp"
#include "topo/smi_text.hpp"
#include "topo/sysfs_probe.hpp"
#include "topo/topology_builder.hpp"
#include "topo/topology_checks.hpp"
#include "topology_fixtures.hpp"

namespace {

const std::string kDir = FB_FIXTURE_DIR "/topo/";

std::string read(const std::string& path) { return read_fixture(path); }

fb::Topology load(const std::string& name) { return load_topology_fixture(name); }

const fb::TopoPair& pair(const fb::Topology& t, int a, int b) {
  for (const auto& p : t.pairs)
    if (p.a == a && p.b == b) return p;
  throw std::runtime_error("no such pair");
}

std::vector<fb::Finding> with_code(const std::vector<fb::Finding>& all, const std::string& code) {
  std::vector<fb::Finding> out;
  std::copy_if(all.begin(), all.end(), std::back_inserter(out),
               [&](const auto& f) { return f.code == code; });
  return out;
}

}  // namespace

TEST(Topology, RealH200PairMatchesNvidiaSmiTopo) {
  const auto t = load("h200x2");
  const auto smi = fb::parse_nvidia_smi_topo(read(kDir + "h200x2/nvidia-smi-topo-m.txt"));
  ASSERT_EQ(t.gpus.size(), smi.gpus.size());
  for (std::size_t i = 0; i < t.gpus.size(); ++i) {
    for (std::size_t j = 0; j < t.gpus.size(); ++j) {
      const std::string ours =
          i == j ? "X"
                 : pair(t, static_cast<int>(std::min(i, j)), static_cast<int>(std::max(i, j)))
                       .connection.to_string();
      EXPECT_EQ(ours, smi.matrix[i][j]) << i << "," << j;
    }
    EXPECT_EQ(t.gpus[i].cpulist, smi.cpu_affinity[i]);
    EXPECT_EQ(std::to_string(t.gpus[i].numa_node), smi.numa_affinity[i]);  // sysfs says -1 (a VM): inferred
  }
  EXPECT_EQ(smi.matrix[0][1], "NV18");
}

TEST(Topology, RealH200LinksAndPeaks) {
  const auto t = load("h200x2");
  for (const auto& g : t.gpus) {
    EXPECT_EQ(g.pcie.gen, 5);
    EXPECT_EQ(g.pcie.max_gen, 5);
    EXPECT_EQ(g.pcie.width, 16);
    EXPECT_EQ(g.pcie.max_width, 16);
    EXPECT_EQ(g.links.size(), 18u);
    EXPECT_EQ(g.links[0].version, 4);  // NVML's 6 = NVLink 4.0
  }
  const auto& p = pair(t, 0, 1);
  EXPECT_EQ(p.links, 18);
  EXPECT_DOUBLE_EQ(p.link_gbps, 25.0);
  EXPECT_DOUBLE_EQ(p.wire_gbps, 450.0);  // 18 x 25 GB/s per direction
  EXPECT_NEAR(p.sm_ceiling_gbps, 373.5, 1e-9);
  EXPECT_NEAR(p.ce_ceiling_gbps, 396.0, 1e-9);
  EXPECT_EQ(p.pcie_class, "PHB");
  ASSERT_TRUE(p.p2p.has_value());
  EXPECT_TRUE(*p.p2p);
  EXPECT_NE(p.limit.find("18 NVLink4 links through NVSwitch"), std::string::npos) << p.limit;
}

TEST(Topology, PcieOnlyTwoSocketClasses) {
  const auto t = load("pcie8");
  EXPECT_EQ(pair(t, 0, 1).connection.to_string(), "PIX");
  EXPECT_EQ(pair(t, 4, 5).connection.to_string(), "PIX");
  EXPECT_EQ(pair(t, 2, 3).connection.to_string(), "PXB");
  EXPECT_EQ(pair(t, 6, 7).connection.to_string(), "PXB");
  EXPECT_EQ(pair(t, 0, 2).connection.to_string(), "PHB");
  EXPECT_EQ(pair(t, 0, 4).connection.to_string(), "SYS");
  EXPECT_EQ(pair(t, 3, 7).connection.to_string(), "SYS");
  EXPECT_NEAR(pair(t, 0, 1).wire_gbps, 32.0 * 128 / 130 / 8 * 16, 1e-9);  // Gen5 x16: 63.0 GB/s
  EXPECT_EQ(t.gpus[4].numa_node, 1);
}

// A normal two-socket PCIe box: no peer access across the sockets is its design, not a fault.
TEST(Topology, PcieOnlyFindingsAreInfo) {
  const auto f = fb::check_topology(load("pcie8"));
  const auto no_p2p = with_code(f, "TOPO_NO_P2P");
  ASSERT_EQ(no_p2p.size(), 1u);  // the 16 cross-socket pairs in one finding
  EXPECT_EQ(no_p2p[0].severity, fb::Severity::info);
  EXPECT_NE(no_p2p[0].evidence.find("GPU3-GPU7 (SYS"), std::string::npos) << no_p2p[0].evidence;
  const auto host = with_code(f, "TOPO_HOST_PATH");
  ASSERT_EQ(host.size(), 2u);  // across sockets, through host bridges
  EXPECT_NE(host[0].evidence.find("crosses CPU sockets (SYS): GPU0-GPU4"), std::string::npos)
      << host[0].evidence;
  const auto numa = with_code(f, "TOPO_NUMA_SPREAD");
  ASSERT_EQ(numa.size(), 1u);
  EXPECT_NE(numa[0].evidence.find("no GPU fabric between them"), std::string::npos);
  for (const auto& x : f) EXPECT_EQ(x.severity, fb::Severity::info) << x.code << " " << x.evidence;
  EXPECT_TRUE(with_code(f, "TOPO_PCIE_WIDTH_DOWN").empty());
  EXPECT_TRUE(with_code(f, "TOPO_NVLINK_DOWN").empty());
}

// Peer access missing between GPUs under one PCIe switch is an error (ACS, IOMMU).
TEST(Topology, NoPeerAccessUnderASwitchIsAnError) {
  auto t = load("pcie8");
  for (auto& p : t.pairs)
    if (p.a == 0 && p.b == 1) p.p2p = false;  // a PIX pair
  const auto no_p2p = with_code(fb::check_topology(t), "TOPO_NO_P2P");
  ASSERT_EQ(no_p2p.size(), 2u);
  EXPECT_EQ(no_p2p[0].severity, fb::Severity::error);
  EXPECT_NE(no_p2p[0].evidence.find("GPU0-GPU1 (PIX"), std::string::npos) << no_p2p[0].evidence;
}

TEST(Topology, DowntrainedLinkIsFoundAndLimitsItsPairs) {
  const auto t = load("pcie8-downtrained");
  const auto f = fb::check_topology(t);
  const auto width = with_code(f, "TOPO_PCIE_WIDTH_DOWN");
  ASSERT_EQ(width.size(), 1u);
  EXPECT_NE(width[0].evidence.find("GPU5"), std::string::npos);
  EXPECT_NE(width[0].evidence.find("Gen4 x8 of a possible Gen5 x16"), std::string::npos) << width[0].evidence;
  EXPECT_EQ(with_code(f, "TOPO_PCIE_SPEED_DOWN").size(), 1u);
  EXPECT_NEAR(pair(t, 4, 5).wire_gbps, 16.0 * 128 / 130 / 8 * 8, 1e-9);  // Gen4 x8: 15.75 GB/s
  EXPECT_NE(pair(t, 4, 5).limit.find("at GPU5"), std::string::npos);
}

TEST(Topology, NvswitchBoardWithTwoLinksDown) {
  const auto t = load("nvswitch8-links-down");
  EXPECT_EQ(pair(t, 0, 1).connection.to_string(), "NV18");
  EXPECT_EQ(pair(t, 0, 3).connection.to_string(), "NV16");
  EXPECT_EQ(pair(t, 3, 7).connection.to_string(), "NV16");
  EXPECT_DOUBLE_EQ(pair(t, 3, 7).wire_gbps, 400.0);
  const auto f = fb::check_topology(t);
  const auto down = with_code(f, "TOPO_NVLINK_DOWN");
  ASSERT_EQ(down.size(), 1u);
  EXPECT_EQ(down[0].severity, fb::Severity::error);
  EXPECT_NE(down[0].evidence.find("GPU3"), std::string::npos);
  EXPECT_NE(down[0].evidence.find("links 16, 17"), std::string::npos) << down[0].evidence;
  const auto uneven = with_code(f, "TOPO_NVLINK_UNEVEN");
  ASSERT_EQ(uneven.size(), 1u);
  EXPECT_NE(uneven[0].evidence.find("GPU3 has 16 active NVLinks, other GPUs have 18"), std::string::npos);
}

TEST(Topology, Mi300xMeshFromRocmSmi) {
  const auto smi = fb::parse_rocm_smi_topo(read(kDir + "mi300x8/rocm-smi-showtopo.txt"));
  EXPECT_EQ(smi.n, 8);
  EXPECT_EQ(smi.hops[0][5], 1);
  EXPECT_EQ(smi.weight[2][3], 15);
  EXPECT_EQ(smi.link_type[7][0], "XGMI");
  EXPECT_EQ(smi.numa_node, (std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1}));
  const auto t = load("mi300x8");
  ASSERT_EQ(t.pairs.size(), 28u);
  for (const auto& p : t.pairs) {
    EXPECT_EQ(p.connection.to_string(), "XGMI");
    EXPECT_DOUBLE_EQ(p.wire_gbps, 64.0);
  }
}

TEST(Topology, HealthyMachinesRaiseNoWarnings) {
  for (const char* name : {"h200x2", "nvswitch8", "mi300x8"}) {
    for (const auto& f : fb::check_topology(load(name)))
      EXPECT_EQ(f.severity, fb::Severity::info) << name << ": " << f.code << " " << f.evidence;
  }
}

TEST(Topology, MissingSysfsIsSaidNotFatal) {
  fb::TopologyInputs in;
  in.sysfs = fb::read_sysfs("/nonexistent-root");
  ASSERT_FALSE(in.sysfs.missing.empty());
  EXPECT_NE(in.sysfs.missing[0].find("not readable"), std::string::npos);
  const auto t = fb::build_topology(in);
  EXPECT_TRUE(t.gpus.empty());
}

TEST(Topology, JsonRoundTrip) {
  const auto t = load("nvswitch8-links-down");
  const auto back = nlohmann::json(t).get<fb::Topology>();
  EXPECT_EQ(nlohmann::json(back), nlohmann::json(t));
}

TEST(SmiText, NvidiaSmiTopoCapture) {
  const auto smi = fb::parse_nvidia_smi_topo(read(kDir + "h200x2/nvidia-smi-topo-m.txt"));
  EXPECT_EQ(smi.gpus, (std::vector<std::string>{"GPU0", "GPU1"}));
  EXPECT_EQ(smi.matrix[0], (std::vector<std::string>{"X", "NV18"}));
  EXPECT_EQ(smi.cpu_affinity[1], "0-31");
}

TEST(SmiText, MalformedInputsAreUsageErrors) {
  EXPECT_THROW(fb::parse_nvidia_smi_topo("nothing here"), fb::Error);
  EXPECT_THROW(fb::parse_rocm_smi_topo("nothing here"), fb::Error);
  EXPECT_THROW(fb::parse_rocm_smi_topo("== Link Type between two GPUs ==\nGPU0   0    XGMI\n"), fb::Error);
}

// A number too large for an int in rocm-smi's NUMA lines is the input's fault (exit 2), not an
// uncaught out_of_range; the unmodified capture reads GPU0 on node 0.
TEST(SmiText, RocmNumaNumbersOutOfRangeAreUsageErrors) {
  const auto capture = read(kDir + "mi300x8/rocm-smi-showtopo.txt");
  const std::string line = "GPU[0]\t\t: (Topology) Numa Node: 0";
  ASSERT_NE(capture.find(line), std::string::npos);
  EXPECT_EQ(fb::parse_rocm_smi_topo(capture).numa_node[0], 0);
  for (const std::string bad :
       {"GPU[0]\t\t: (Topology) Numa Node: 99999999999", "GPU[99999999999]\t\t: (Topology) Numa Node: 0",
        "GPU[5000]\t\t: (Topology) Numa Node: 0"}) {
    auto text = capture;
    text.replace(text.find(line), line.size(), bad);
    try {
      fb::parse_rocm_smi_topo(text);
      ADD_FAILURE() << "accepted: " << bad;
    } catch (const fb::Error& e) {
      EXPECT_EQ(e.code(), fb::ExitCode::usage) << bad;
    }
  }
}

// A sysfs NUMA directory whose number does not fit an int is not a node; the others still read.
TEST(Topology, SysfsNodeNumberOutOfRangeIsSkipped) {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / ("fb-sysfs-" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::copy(kDir + "h200x2", root, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  const fs::path bad = root / "sys/devices/system/node/node99999999999";
  fs::create_directories(bad);
  std::ofstream(bad / "cpulist") << "0-3\n";
  const auto sysfs = fb::read_sysfs(root);
  fs::remove_all(root);
  EXPECT_EQ(sysfs.numa_cpulists, fb::read_sysfs(kDir + "h200x2").numa_cpulists);
  EXPECT_EQ(sysfs.numa_cpulists.size(), 1U);
}

TEST(LinkRates, TablesAgainstHandValues) {
  EXPECT_NEAR(fb::pcie_gbps(5, 16), 63.015, 1e-3);
  EXPECT_NEAR(fb::pcie_gbps(4, 16), 31.508, 1e-3);
  EXPECT_NEAR(fb::pcie_gbps(3, 16), 15.754, 1e-3);
  EXPECT_DOUBLE_EQ(fb::pcie_gbps(2, 8), 4.0);
  EXPECT_EQ(fb::pcie_gen_from_gts(32.0), 5);
  EXPECT_EQ(fb::pcie_gen_from_gts(2.5), 1);
  EXPECT_EQ(fb::pcie_gen_from_gts(7.0), 0);
  EXPECT_DOUBLE_EQ(fb::nvlink_generation(4)->data_gbps * 18, 450.0);
  EXPECT_DOUBLE_EQ(fb::xgmi_product("", "0x74a1")->gbps_per_link, 64.0);
  EXPECT_EQ(fb::xgmi_product("Radeon", "0x1234"), nullptr);
}

// The console view against golden files (FB_UPDATE_GOLDEN=1 rewrites them; review the diff).
TEST(TopologyConsole, GoldenFiles) {
  for (const char* name : {"h200x2", "nvswitch8-links-down", "pcie8-downtrained"}) {
    const auto t = load(name);
    std::ostringstream out;
    fb::print_topology(out, t, fb::check_topology(t));
    expect_golden(std::string("topo_") + name + ".txt", out.str());
  }
}
