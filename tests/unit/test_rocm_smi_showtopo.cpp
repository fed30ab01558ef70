// rocm-smi --showtopo text read right: the weight tells a direct xGMI link from a multi-hop path,
// a text of fewer GPUs than sysfs is not guessed onto them, and ROCm 6.1's partitioned output
// names what it lacks (fixtures: tests/fixtures/topo/rocm-smi/, all synthesised, README.md).
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "topo/machine_probe.hpp"
#include "topo/xgmi_pairs.hpp"
#include "topology_fixtures.hpp"

namespace {

const std::string kTopo = std::string(FB_FIXTURE_DIR) + "/topo/";

fb::RocmSmiTopo text(const std::string& name) {
  return fb::parse_rocm_smi_topo(read_fixture(kTopo + "rocm-smi/" + name));
}

bool has(const std::vector<std::string>& notes, const std::string& part) {
  for (const auto& n : notes)
    if (n.find(part) != std::string::npos) return true;
  return false;
}

// The 8-GPU sysfs tree of mi300x8 dressed as 4 x MI250X (8 GCDs, PCI device 0x740c).
fb::TopologyInputs mi250x_machine(const std::string& smi) {
  fb::TopologyInputs in;
  in.sysfs = fb::read_sysfs(kTopo + "mi300x8");
  for (auto& g : in.sysfs.gpus) {
    g.device_id = "0x740c";
    g.name = "AMD Instinct MI250X";
  }
  in.amd = text(smi);
  return in;
}

}  // namespace

TEST(RocmSmiShowtopo, WeightTellsDirectFromMultiHop) {
  const auto smi = text("mi250x8-multihop-showtopo.txt");
  EXPECT_EQ(smi.hops[0][2], 1);  // rocm-smi's hops: 1 for every xGMI pair
  EXPECT_EQ(smi.weight[0][2], 30);
  EXPECT_TRUE(smi.unread.empty());
  const auto t = fb::build_topology(mi250x_machine("mi250x8-multihop-showtopo.txt"));
  const auto* direct = t.find_pair(0, 1);
  ASSERT_NE(direct, nullptr);
  EXPECT_EQ(direct->connection.to_string(), "XGMI");
  EXPECT_EQ(direct->links, 1);
  EXPECT_DOUBLE_EQ(direct->wire_gbps, 50.0);
  EXPECT_DOUBLE_EQ(direct->sm_ceiling_gbps, 36.0);
  EXPECT_NE(direct->limit.find("weight 15: one xGMI hop"), std::string::npos) << direct->limit;
  const auto* two = t.find_pair(0, 2);
  ASSERT_NE(two, nullptr);
  EXPECT_EQ(two->links, 0);
  EXPECT_DOUBLE_EQ(two->wire_gbps, 0.0);
  EXPECT_DOUBLE_EQ(two->sm_ceiling_gbps, 0.0);
  EXPECT_NE(two->limit.find("indirect xGMI path of 2 hops, no direct link"), std::string::npos) << two->limit;
  const auto* three = t.find_pair(1, 5);
  ASSERT_NE(three, nullptr);
  EXPECT_EQ(three->links, 0);
  EXPECT_NE(three->limit.find("3 hops"), std::string::npos) << three->limit;
  int direct_pairs = 0;
  for (const auto& p : t.pairs) direct_pairs += p.links > 0 ? 1 : 0;
  EXPECT_EQ(direct_pairs, 10);  // the layout's 10 links of 28 pairs
}

// 4 GPUs of text against 8 in sysfs: no row is guessed onto the lowest bus ids.
TEST(RocmSmiShowtopo, FewerGpusThanSysfsAreNotMatched) {
  fb::TopologyInputs in;
  in.sysfs = fb::read_sysfs(kTopo + "mi300x8");
  in.amd = text("mi300x-4of8-showtopo.txt");
  ASSERT_EQ(in.amd->n, 4);
  const auto t = fb::build_topology(in);
  for (const auto& p : t.pairs) EXPECT_NE(p.connection.to_string(), "XGMI") << p.a << "-" << p.b;
  EXPECT_TRUE(has(t.missing, "lists 4 GPUs, sysfs 8 AMD GPUs")) << ::testing::PrintToString(t.missing);
  // Named by the user, the file is the wrong one: exit 2 with the reason.
  fb::TopologySources s;
  s.sysfs_root = kTopo + "mi300x8";
  s.rocm_smi_file = kTopo + "rocm-smi/mi300x-4of8-showtopo.txt";
  s.use_runtime = false;
  try {
    (void)fb::probe_topology(s);
    FAIL() << "no error";
  } catch (const fb::Error& e) {
    EXPECT_EQ(e.code(), fb::ExitCode::usage);
    EXPECT_NE(std::string(e.what()).find("it lists 4 GPUs, sysfs 8 AMD GPUs"), std::string::npos) << e.what();
  }
}

// ROCm 6.1 on partitioned MI300A (TPX): error lines and N/A under Weight, no Hops or Link Type.
TEST(RocmSmiShowtopo, PartitionedOutputNamesWhatIsMissing) {
  const auto smi = text("mi300a-tpx-rocm6.1-showtopo.txt");
  EXPECT_EQ(smi.n, 12);
  EXPECT_EQ(smi.weight.size(), 12u);
  EXPECT_EQ(smi.weight[0][0], 0);
  EXPECT_EQ(smi.weight[3][7], -1);
  EXPECT_TRUE(smi.hops.empty());
  EXPECT_TRUE(smi.link_type.empty());
  EXPECT_TRUE(has(smi.unread, "printed no Hops or Link Type sections (a partitioned GPU, TPX or CPX mode?)"))
      << ::testing::PrintToString(smi.unread);
  EXPECT_TRUE(has(smi.unread, "could not read 132 link values"));
  fb::TopologyInputs in;
  in.sysfs = fb::read_sysfs(kTopo + "mi300x8");
  in.amd = smi;
  const auto t = fb::build_topology(in);
  EXPECT_TRUE(has(t.missing, "no Hops or Link Type sections"));
  EXPECT_TRUE(has(t.missing, "lists 12 GPUs, sysfs 8 AMD GPUs"));
  for (const auto& p : t.pairs) EXPECT_NE(p.connection.to_string(), "XGMI");
  EXPECT_FALSE(has(t.missing, "partitions per GPU"));  // 12 rows are no whole number of partitions of 8
  // Named by the user, it is read too: it has no link type to put on the wrong pair.
  fb::TopologySources s;
  s.sysfs_root = kTopo + "mi300x8";
  s.rocm_smi_file = kTopo + "rocm-smi/mi300a-tpx-rocm6.1-showtopo.txt";
  s.use_runtime = false;
  const auto probed = fb::probe_topology(s);
  EXPECT_EQ(probed.gpus.size(), 8u);
  EXPECT_TRUE(has(probed.missing, "no Hops or Link Type sections"));
}

TEST(RocmSmiShowtopo, NoMatrixAtAllIsStillAnError) {
  EXPECT_THROW(fb::parse_rocm_smi_topo("== Weight between two GPUs ==\nERROR: GPU[0] : Cannot read\n"),
               fb::Error);
}

// 4 MI300A in TPX show 12 devices to rocm-smi: the note says what that likely is.
TEST(RocmSmiShowtopo, PartitionCountIsNamed) {
  std::vector<fb::TopoGpu> gpus(4);
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    gpus[i].vendor = "amd";
    gpus[i].bus_id = "0000:0" + std::to_string(i) + ":00.0";
  }
  std::vector<std::string> unmatched;
  const auto index = fb::amd_smi_indices(gpus, text("mi300a-tpx-rocm6.1-showtopo.txt"), unmatched);
  EXPECT_EQ(index, (std::vector<int>{-1, -1, -1, -1}));
  ASSERT_EQ(unmatched.size(), 1u);
  EXPECT_NE(unmatched[0].find("lists 12 GPUs, sysfs 4 AMD GPUs (3 partitions per GPU?)"), std::string::npos)
      << unmatched[0];
}
