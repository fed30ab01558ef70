// The host probe (topo/host_probe.hpp) on the fixture trees: what it reads from /proc, sysfs,
// the mounts and the kernel log, and the ACS capability walk over config space images.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>

#include "core/error.hpp"
#include "every_field_result.hpp"
#include "host_fixtures.hpp"
#include "model/result_json.hpp"
#include "topo/host_probe_pci.hpp"

namespace {

// A 4096-byte config space with the given extended capabilities: (offset, id, next, payload32).
std::string config_with(std::initializer_list<std::array<std::uint32_t, 4>> caps, std::size_t size = 4096) {
  std::string b(4096, '\0');
  auto put32 = [&](std::size_t at, std::uint32_t v) {
    for (std::size_t i = 0; i < 4; ++i) b[at + i] = static_cast<char>((v >> (8 * i)) & 0xff);
  };
  for (const auto& [at, id, next, payload] : caps) {
    put32(at, id | (1U << 16) | (next << 20));
    put32(at + 4, payload);
  }
  return b.substr(0, size);
}

}  // namespace

TEST(HostProbePci, FindsTheAcsControlRegister) {
  // AER at 0x100 -> ACS at 0x148: Capability 0x007f, Control 0x001d (the +6 half of the word).
  const auto cfg = config_with({{0x100, 0x0001, 0x148, 0}, {0x148, 0x000D, 0, 0x001D007F}});
  const auto acs = fb::find_acs_control(cfg);
  EXPECT_EQ(acs.read, fb::AcsRead::control);
  EXPECT_EQ(acs.control, 0x001D);
  EXPECT_EQ(fb::acs_bit_names(acs.control), "SrcValid+ ReqRedir+ CmpltRedir+ UpstreamFwd+");
  EXPECT_EQ(fb::acs_bit_names(0), "none");
}

TEST(HostProbePci, NoCapabilityTruncatedAndLoops) {
  EXPECT_EQ(fb::find_acs_control(config_with({{0x100, 0x0001, 0, 0}})).read, fb::AcsRead::no_capability);
  EXPECT_EQ(fb::find_acs_control(std::string(256, '\0')).read,
            fb::AcsRead::no_capability);                                                  // conventional only
  EXPECT_EQ(fb::find_acs_control(std::string(64, '\x11')).read, fb::AcsRead::truncated);  // not root
  // A list that points back at itself ends instead of spinning.
  EXPECT_EQ(fb::find_acs_control(config_with({{0x100, 0x0001, 0x100, 0}})).read, fb::AcsRead::no_capability);
  // An ACS header whose registers lie past the end of the image is not read.
  EXPECT_EQ(fb::find_acs_control(config_with({{0x100, 0x000D, 0, 0x001D007F}}, 0x104)).read,
            fb::AcsRead::no_capability);
}

TEST(HostProbe, ReadsTheHealthyTree) {
  const auto root = host_fixture("healthy");
  const auto gpus = fb::read_sysfs(root).gpus;
  const auto h = fb::read_host_files(root, gpus);
  EXPECT_EQ(h.numa_balancing.value, "0");
  EXPECT_EQ(h.numa_balancing.source, "/proc/sys/kernel/numa_balancing");
  EXPECT_NE(h.kernel_cmdline.value.find("iommu=pt"), std::string::npos);
  EXPECT_EQ(h.iommu_units.value, "dmar0,dmar1");
  EXPECT_EQ(h.shm_bytes.value, std::to_string(8ULL << 30));
  EXPECT_EQ(h.shm_bytes.source, "/proc/mounts (/dev/shm size=8388608k)");
  EXPECT_EQ(h.xid_count.value, "0");
  ASSERT_EQ(h.bridges.size(), 4u);  // root port, switch upstream port, two downstream ports
  EXPECT_EQ(h.bridges[0].bus_id, "0000:00:01.0");
  EXPECT_EQ(h.bridges[0].acs_control.value, "0x0000");
  EXPECT_EQ(h.bridges[2].acs_control.source, "/sys/bus/pci/devices/0000:02:00.0/config");
  ASSERT_EQ(h.gpus.size(), 2u);
  EXPECT_EQ(h.gpus[0].bus_id, "0000:03:00.0");
  EXPECT_EQ(h.gpus[0].iommu_group_type.value, "identity");
  EXPECT_EQ(h.gpus[0].persistence_mode.value, "") << "NVML is not read from files";
}

TEST(HostProbe, ReadsEachFault) {
  auto read = [](const std::string& tree) {
    const auto root = host_fixture(tree);
    return fb::read_host_files(root, fb::read_sysfs(root).gpus);
  };
  EXPECT_EQ(read("acs-redirect").bridges[2].acs_control.value, "0x001d");
  EXPECT_EQ(read("acs-redirect").bridges[1].acs_control.value, "0x0000");
  EXPECT_EQ(read("acs-no-root").bridges[2].acs_control.value, "");
  EXPECT_EQ(read("iommu-dma").gpus[1].iommu_group_type.value, "DMA-FQ");
  EXPECT_EQ(read("numa-balancing").numa_balancing.value, "1");
  EXPECT_EQ(read("shm-small").shm_bytes.value, std::to_string(64ULL << 20));
  const auto xid = read("xid-79");
  EXPECT_EQ(xid.xid_count.value, "1");
  ASSERT_EQ(xid.xid_lines.size(), 1u);
  EXPECT_NE(xid.xid_lines[0].find("Xid (PCI:0000:03:00): 79"), std::string::npos);
}

// The real 2 x H200 capture: GPUs on the root bus of a VM (no bridges), nothing else captured.
TEST(HostProbe, WhatCannotBeReadIsNoted) {
  const auto root = std::string(FB_FIXTURE_DIR) + "/topo/h200x2";
  const auto h = fb::read_host_files(root, fb::read_sysfs(root).gpus);
  EXPECT_TRUE(h.bridges.empty());
  ASSERT_EQ(h.gpus.size(), 2u);
  EXPECT_EQ(h.gpus[0].iommu_group_type.value, "none");
  EXPECT_EQ(h.numa_balancing.value, "");
  // Not taken by the capture: said so, and not judged (nor a reason to run as root: issue 30).
  EXPECT_EQ(h.numa_balancing.note, fb::kNotCaptured);
  EXPECT_EQ(h.xid_count.note, fb::kNotCaptured);
  EXPECT_EQ(h.shm_bytes.value, "");
}

// The same machine's host files, captured as root (tests/fixtures/host/h200x2/README.md).
TEST(HostProbe, ReadsTheRealH200Host) {
  const auto h = fb::read_host_files(kRealH200Host, fb::read_sysfs(kRealH200Topology).gpus);
  EXPECT_EQ(h.numa_balancing.value, "0");
  EXPECT_NE(h.kernel_cmdline.value.find("pci=realloc=off"), std::string::npos) << h.kernel_cmdline.value;
  EXPECT_EQ(h.iommu_units.value, "none");  // the VM has no IOMMU (cmd/ls_sys_class_iommu.txt)
  // Four NVRM lines, two of them "FBHUB Interrupt detected": none is an Xid.
  EXPECT_EQ(h.xid_count.value, "0");
  EXPECT_TRUE(h.xid_lines.empty());
  EXPECT_EQ(h.shm_bytes.value, "");  // no proc/mounts in the capture
  EXPECT_EQ(h.shm_bytes.note, fb::kNotCaptured);
  EXPECT_TRUE(h.bridges.empty());  // both GPUs on the root bus
  ASSERT_EQ(h.gpus.size(), 2u);
  EXPECT_EQ(h.gpus[0].bus_id, "0000:00:06.0");
  EXPECT_EQ(h.gpus[1].bus_id, "0000:00:07.0");
  EXPECT_EQ(h.gpus[1].iommu_group_type.value, "none");
}

TEST(HostFactsJson, ParsesEveryField) {
  const auto r = fb::parse_result(kEveryFieldJson);
  ASSERT_TRUE(r.host.config.has_value());
  const auto& h = *r.host.config;
  EXPECT_EQ(h.numa_balancing.value, "1");
  EXPECT_EQ(h.numa_balancing.source, "/proc/sys/kernel/numa_balancing");
  EXPECT_EQ(h.shm_bytes.source, "/proc/mounts");
  EXPECT_EQ(h.xid_count.note, "kernel log not readable");
  EXPECT_EQ(h.xid_lines.size(), 1u);
  ASSERT_EQ(h.bridges.size(), 1u);
  EXPECT_EQ(h.bridges[0].bus_id, "0000:20:01.1");
  EXPECT_EQ(h.bridges[0].acs_control.value, "0x001d");
  ASSERT_EQ(h.gpus.size(), 1u);
  EXPECT_EQ(h.gpus[0].iommu_group_type.value, "DMA-FQ");
  EXPECT_EQ(h.gpus[0].clocks_event_reasons.value, "0x0000000000000048");
  EXPECT_EQ(h.gpus[0].remapped_rows_pending.value, "1");
  EXPECT_EQ(h.gpus[0].retired_pages_pending.note, "NVML: Not Supported");
}

TEST(HostFactsJson, AbsentOrPartialFactsLoad) {
  auto j = nlohmann::json::parse(kEveryFieldJson);
  j["host"].erase("config");  // documents from before host facts
  EXPECT_FALSE(fb::parse_result(j.dump()).host.config.has_value());
  j["host"]["config"] = {{"numa_balancing", {{"value", "0"}}}};  // fewer facts, fewer fields
  const auto r = fb::parse_result(j.dump());
  ASSERT_TRUE(r.host.config.has_value());
  EXPECT_EQ(r.host.config->numa_balancing.value, "0");
  EXPECT_EQ(r.host.config->numa_balancing.source, "");
  EXPECT_TRUE(r.host.config->gpus.empty());
  // A fact that is null or not an object is a malformed document (exit 2), not a silent default.
  for (const nlohmann::json& bad : {nlohmann::json(nullptr), nlohmann::json("0"), nlohmann::json(0)}) {
    j["host"]["config"] = {{"numa_balancing", bad}};
    try {
      (void)fb::parse_result(j.dump());
      ADD_FAILURE() << bad.dump() << " was accepted";
    } catch (const fb::Error& e) {
      EXPECT_EQ(e.code(), fb::ExitCode::usage) << e.what();
    }
  }
}
