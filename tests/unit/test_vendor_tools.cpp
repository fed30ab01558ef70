// Hints name the vendor's own tools, read from the document: an MI300X topology (the real
// rocm-smi/sysfs fixture) gets rocm-smi, the H200 ones nvidia-smi, whichever build analyses them.
#include <gtest/gtest.h>

#include <string>

#include "analyse/run/p2p_analysis.hpp"
#include "analyse/run/run_health.hpp"
#include "analyse/scope/vendor_tools.hpp"
#include "p2p_builders.hpp"
#include "planted.hpp"
#include "topology_fixtures.hpp"

namespace {

using fb::gpu::Vendor;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The P2P_WRONG_DATA hint for one corrupted copy between GPUs 0 and 1 of `t`.
std::string wrong_data_hint(const fb::Topology& t) {
  auto m = p2p_figure("ce_read", 1, 0, 40);
  m.wrong = 3;
  for (const auto& f : fb::check_p2p({m}, t, 0.1))
    if (f.code == "P2P_WRONG_DATA") return f.hint;
  ADD_FAILURE() << "no P2P_WRONG_DATA";
  return "";
}

}  // namespace

TEST(VendorTools, TheTopologySaysWhoseGpusTheseAre) {
  EXPECT_EQ(fb::topology_vendor(load_topology_fixture("mi300x8")), Vendor::amd);
  EXPECT_EQ(fb::topology_vendor(load_topology_fixture("h200x2")), Vendor::nvidia);
  EXPECT_EQ(fb::topology_vendor(fb::Topology{}), Vendor::nvidia);
}

TEST(VendorTools, WithoutATopologyTheLibraryOrTheGpuNamesSay) {
  fb::Result r;
  EXPECT_EQ(fb::result_vendor(r), Vendor::nvidia);
  r.host.comm.name = "RCCL";
  EXPECT_EQ(fb::result_vendor(r), Vendor::amd);
  r.host.comm.name = "NCCL";
  r.gpus.push_back({.index = 0, .rank = 0, .name = "AMD Instinct MI300X"});
  EXPECT_EQ(fb::result_vendor(r), Vendor::amd);
  r.gpus.front().name = "NVIDIA H200";
  EXPECT_EQ(fb::result_vendor(r), Vendor::nvidia);
  r.topology = load_topology_fixture("mi300x8");  // the topology outranks the names
  EXPECT_EQ(fb::result_vendor(r), Vendor::amd);
}

TEST(VendorTools, P2pHintsNameTheVendorsTool) {
  const auto amd = wrong_data_hint(load_topology_fixture("mi300x8"));
  EXPECT_TRUE(contains(amd, "rocm-smi --showrasinfo")) << amd;
  EXPECT_FALSE(contains(amd, "nvidia-smi")) << amd;
  const auto nvidia = wrong_data_hint(load_topology_fixture("h200x2"));
  EXPECT_TRUE(contains(nvidia, "nvidia-smi -q -d ECC")) << nvidia;
}

TEST(VendorTools, ALostGpuOnAnAmdMachinePointsAtRocmSmiAndAmdgpu) {
  auto r = planted::load("h200x2-doctor-quick");
  r.status = fb::RunStatus::complete;
  auto lost = [](const fb::Result& doc) {
    for (const auto& f : fb::check_run_status(doc))
      if (f.code == "GPU_LOST") return f.hint;
    return std::string("no GPU_LOST");
  };
  r.topology->gpus.erase(r.topology->gpus.begin() + 1);
  EXPECT_TRUE(contains(lost(r), "Xid 79")) << lost(r);
  for (auto& g : r.topology->gpus) g.vendor = "amd";
  EXPECT_TRUE(contains(lost(r), "rocm-smi -a")) << lost(r);
  EXPECT_TRUE(contains(lost(r), "amdgpu")) << lost(r);
  EXPECT_FALSE(contains(lost(r), "nvidia-smi")) << lost(r);
}
