// The host rules (analyse/host/host_checks.hpp) on the fixture trees of tests/fixtures/host: each
// fault caught with its code, severity and the evidence read; the healthy tree raises nothing.
#include <gtest/gtest.h>

#include <algorithm>

#include "analyse/host/host_checks.hpp"
#include "analyse/judge.hpp"
#include "analyse/scope/host_scope.hpp"
#include "host_fixtures.hpp"
#include "model/result_json.hpp"

namespace {

std::vector<fb::Finding> with_code(const std::vector<fb::Finding>& all, const std::string& code) {
  std::vector<fb::Finding> out;
  std::copy_if(all.begin(), all.end(), std::back_inserter(out),
               [&](const auto& f) { return f.code == code; });
  return out;
}

// The one finding `code` among the host findings of `r`; fails the test when not exactly one.
fb::Finding only(const fb::Result& r, const std::string& code) {
  const auto found = with_code(fb::check_host(r), code);
  EXPECT_EQ(found.size(), 1u) << code;
  return found.empty() ? fb::Finding{} : found[0];
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST(HostChecks, HealthyTreeRaisesNothing) {
  const auto r = host_result("healthy");
  EXPECT_TRUE(fb::check_host(r).empty());
  for (const auto& f : fb::analyse_result(r))
    EXPECT_EQ(f.code.rfind("HOST_", 0), std::string::npos) << f.code;
}

// The real 2 x H200 VM, with NVML as its nvidia-smi -q showed it (persistence on, no clock
// events, no ECC errors): no host finding at all. The /dev/shm size, which the capture did not take
// (no proc/mounts), is "not in the captured tree": not judged, not a reason to run as root (issue 30).
TEST(HostChecks, RealH200HostRaisesOnlyWhatWasNotCaptured) {
  const auto r = host_result_from(kRealH200Topology, kRealH200Host);
  EXPECT_TRUE(r.host.config->shm_bytes.not_captured());
  const auto found = fb::check_host(r);
  for (const auto& f : found) ADD_FAILURE() << f.code << ": " << f.evidence;
  for (const auto& f : fb::analyse_result(r))
    if (f.code.rfind("HOST_", 0) == 0) EXPECT_EQ(f.severity, fb::Severity::info) << f.code;
}

TEST(HostChecks, NoHostFactsNoFindings) {
  auto r = host_result("acs-redirect");
  r.host.config.reset();
  EXPECT_TRUE(fb::check_host(r).empty());
}

TEST(HostChecks, AcsRedirectBetweenPeerGpus) {
  auto r = host_result("acs-redirect");
  auto f = only(r, "HOST_ACS_REDIRECT");
  EXPECT_EQ(f.severity, fb::Severity::warning);
  EXPECT_TRUE(contains(f.evidence, "GPU 0 (0000:03:00.0) - GPU 1 (0000:04:00.0)")) << f.evidence;
  EXPECT_TRUE(contains(f.evidence,
                       "0000:02:00.0 ACSCtl 0x001d (SrcValid+ ReqRedir+ CmpltRedir+ UpstreamFwd+) "
                       "from /sys/bus/pci/devices/0000:02:00.0/config"))
      << f.evidence;
  EXPECT_TRUE(contains(f.evidence, "0000:02:01.0")) << f.evidence;
  EXPECT_FALSE(contains(f.evidence, "0000:01:00.0")) << "the upstream port is not between the GPUs";
  EXPECT_TRUE(contains(f.hint, "ECAP_ACS+0x6.w=0000"));

  r.topology->pairs[0].p2p = false;  // and peer access is broken: error
  EXPECT_EQ(only(r, "HOST_ACS_REDIRECT").severity, fb::Severity::error);
  r.topology->pairs[0].p2p = true;
  fb::Run run;
  run.nccl_transports = {"SHM/direct/direct"};  // NCCL fell back
  r.runs.push_back(run);
  EXPECT_EQ(only(r, "HOST_ACS_REDIRECT").severity, fb::Severity::error);
}

TEST(HostChecks, AcsSeesOnlyTheRunsPairs) {
  EXPECT_TRUE(with_code(fb::check_host(host_result("acs-redirect", 1)), "HOST_ACS_REDIRECT").empty());
  auto r = host_result("acs-redirect");  // joined by a GPU fabric, peer traffic does not cross PCIe
  r.topology->pairs[0].connection = fb::Connection::nvlink(4);
  EXPECT_TRUE(with_code(fb::check_host(r), "HOST_ACS_REDIRECT").empty());
}

TEST(HostChecks, AcsUnreadableWithoutRootIsInfo) {
  const auto r = host_result("acs-no-root");
  const auto f = only(r, "HOST_NOT_READABLE");
  EXPECT_EQ(f.severity, fb::Severity::info);
  EXPECT_TRUE(contains(f.evidence,
                       "ACS on bridge 0000:02:00.0 (/sys/bus/pci/devices/0000:02:00.0/config: not "
                       "readable without root (sysfs gave 64 bytes of config space))"))
      << f.evidence;
  EXPECT_FALSE(contains(f.evidence, "0000:00:01.0")) << "the root port is above both GPUs";
  EXPECT_TRUE(with_code(fb::check_host(r), "HOST_ACS_REDIRECT").empty()) << "never guessed";
}

// The IOMMU rule cannot judge a GPU whose group type was not read (kernels before 5.11), nor the
// boot options without /proc/cmdline: both are said unread, not passed over.
TEST(HostChecks, UnreadIommuTypeAndCmdlineAreSaid) {
  auto r = host_result("iommu-dma");
  r.host.config->gpus[1].iommu_group_type = {"", "/sys/bus/pci/devices/0000:04:00.0/iommu_group/type",
                                             "iommu_group/type not readable (kernels before 5.11 lack it)"};
  r.host.config->kernel_cmdline = {"", "/proc/cmdline", "not readable"};
  const auto f = only(r, "HOST_NOT_READABLE");
  EXPECT_TRUE(contains(f.evidence,
                       "IOMMU group of GPU 1 (0000:04:00.0) (/sys/bus/pci/devices/0000:04:00.0/"
                       "iommu_group/type: iommu_group/type not readable (kernels before 5.11 lack it))"))
      << f.evidence;
  EXPECT_TRUE(contains(f.evidence, "the kernel command line (/proc/cmdline: not readable)")) << f.evidence;
}

TEST(HostChecks, IommuTranslatingDma) {
  auto f = only(host_result("iommu-dma"), "HOST_IOMMU_TRANSLATION");
  EXPECT_EQ(f.severity, fb::Severity::warning);
  EXPECT_TRUE(contains(f.evidence,
                       "GPU 0 (0000:03:00.0): DMA-FQ (/sys/bus/pci/devices/0000:03:00.0/iommu_group/type)"))
      << f.evidence;
  EXPECT_TRUE(contains(f.evidence, "no iommu=pt on the kernel command line")) << f.evidence;
  EXPECT_TRUE(contains(f.hint, "iommu=pt"));
  // One GPU: only its host copies pass the IOMMU.
  EXPECT_EQ(only(host_result("iommu-dma", 1), "HOST_IOMMU_TRANSLATION").severity, fb::Severity::info);
}

TEST(HostChecks, NumaBalancingOn) {
  const auto f = only(host_result("numa-balancing"), "HOST_NUMA_BALANCING");
  EXPECT_EQ(f.severity, fb::Severity::info);
  EXPECT_TRUE(contains(f.evidence, "1 (/proc/sys/kernel/numa_balancing)")) << f.evidence;
  EXPECT_TRUE(contains(f.hint, "sysctl -w kernel.numa_balancing=0"));
  auto amd = host_result("numa-balancing");
  for (auto& g : amd.topology->gpus) g.vendor = "amd";
  EXPECT_EQ(only(amd, "HOST_NUMA_BALANCING").severity, fb::Severity::warning);
}

TEST(HostChecks, SmallDevShm) {
  auto r = host_result("shm-small");
  auto f = only(r, "HOST_SHM_SMALL");
  EXPECT_EQ(f.severity, fb::Severity::warning);
  EXPECT_TRUE(contains(f.evidence, "64 MiB (/proc/mounts (/dev/shm size=65536k))")) << f.evidence;
  EXPECT_TRUE(contains(f.hint, "--shm-size=1g"));
  EXPECT_EQ(only(host_result("shm-small", 1), "HOST_SHM_SMALL").severity, fb::Severity::info);
  r.status = fb::RunStatus::failed;
  r.failure = "NCCL WARN Error while creating shared memory segment /dev/shm/nccl-Xr3bq1 (size 9637888)";
  EXPECT_EQ(only(r, "HOST_SHM_SMALL").severity, fb::Severity::error);
}

TEST(HostChecks, XidInTheKernelLog) {
  auto f = only(host_result("xid-79"), "HOST_XID");
  EXPECT_EQ(f.severity, fb::Severity::error);
  EXPECT_TRUE(contains(f.evidence, "Xid 79")) << f.evidence;
  EXPECT_TRUE(contains(f.evidence, "NVRM: Xid (PCI:0000:03:00): 79, pid='<unknown>'")) << f.evidence;
  EXPECT_TRUE(contains(f.evidence, "/dev/kmsg")) << f.evidence;
  EXPECT_EQ(only(host_result("xid-13"), "HOST_XID").severity, fb::Severity::warning);
  // The Xid of GPU 1 is not the business of a run on GPU 0 alone.
  EXPECT_TRUE(with_code(fb::check_host(host_result("xid-13", 1)), "HOST_XID").empty());
}

TEST(HostChecks, PersistenceOff) {
  auto r = host_result("healthy");
  r.host.config->gpus[1].persistence_mode.value = "disabled";
  const auto f = only(r, "HOST_PERSISTENCE_OFF");
  EXPECT_EQ(f.severity, fb::Severity::info);
  EXPECT_EQ(f.evidence,
            "GPU 1 (0000:04:00.0): persistence mode disabled (NVML nvmlDeviceGetPersistenceMode)");
}

TEST(HostChecks, ClockEventReasons) {
  auto r = host_result("healthy");
  auto& reasons = r.host.config->gpus[0].clocks_event_reasons.value;
  reasons = "0x0000000000000004";  // SW power cap: normal under load
  EXPECT_EQ(only(r, "HOST_CLOCKS_THROTTLED").severity, fb::Severity::info);
  reasons = "0x0000000000000020";
  EXPECT_EQ(only(r, "HOST_CLOCKS_THROTTLED").severity, fb::Severity::warning);
  reasons = "0x0000000000000048";
  const auto f = only(r, "HOST_CLOCKS_THROTTLED");
  EXPECT_EQ(f.severity, fb::Severity::error);
  EXPECT_TRUE(contains(f.evidence,
                       "GPU 0 (0000:03:00.0): clocks held down by HW slowdown, HW thermal slowdown "
                       "(0x0000000000000048 (NVML nvmlDeviceGetCurrentClocksEventReasons))"))
      << f.evidence;
  reasons = "0x0000000000000001";  // idle only
  EXPECT_TRUE(with_code(fb::check_host(r), "HOST_CLOCKS_THROTTLED").empty());
}

TEST(HostChecks, EccAndRowRemapping) {
  auto r = host_result("healthy");
  auto& g = r.host.config->gpus[1];
  g.ecc_uncorrected_volatile.value = "2";
  const auto ecc = only(r, "HOST_ECC_UNCORRECTED");
  EXPECT_EQ(ecc.severity, fb::Severity::error);
  EXPECT_TRUE(contains(ecc.evidence, "GPU 1 (0000:04:00.0)")) << ecc.evidence;
  g.remapped_rows_pending.value = "1";
  EXPECT_EQ(only(r, "HOST_ROW_REMAP").severity, fb::Severity::warning);
  g.remapped_rows_failure.value = "1";
  const auto remap = only(r, "HOST_ROW_REMAP");
  EXPECT_EQ(remap.severity, fb::Severity::error);
  EXPECT_TRUE(contains(remap.evidence, "no spare rows")) << remap.evidence;
}

TEST(HostChecks, NvmlAbsentIsNotedNotJudged) {
  auto r = host_result("healthy");
  for (auto& g : r.host.config->gpus)
    g.persistence_mode = {"", "NVML", "NVML: libnvidia-ml.so.1 not loadable (no such file)"};
  const auto f = only(r, "HOST_NOT_READABLE");
  EXPECT_TRUE(contains(f.evidence, "NVML health of GPU 0 (0000:03:00.0) (NVML: NVML: libnvidia-ml.so.1 not"))
      << f.evidence;
  EXPECT_TRUE(with_code(fb::check_host(r), "HOST_PERSISTENCE_OFF").empty());
}

// A saved document carries the facts: `report --analyse` judges it as the doctor did.
TEST(HostChecks, SavedDocumentJudgesTheSame) {
  const auto r = host_result("acs-redirect");
  const auto again = fb::parse_result(nlohmann::json(r).dump());
  ASSERT_TRUE(again.host.config.has_value());
  const auto before = fb::check_host(r);
  const auto after = fb::check_host(again);
  ASSERT_EQ(before.size(), after.size());
  for (std::size_t i = 0; i < before.size(); ++i) EXPECT_EQ(before[i].evidence, after[i].evidence);
}

// The facts' numbers as the rules read them: a value that is not a whole number counts as none.
TEST(HostScope, NumberOrZero) {
  auto fact = [](const char* value) { return fb::HostFact{value, "test", ""}; };
  EXPECT_EQ(fb::number_or_zero(fact("42")), 42u);
  EXPECT_EQ(fb::number_or_zero(fact("274877906944")), 274877906944u);
  EXPECT_EQ(fb::number_or_zero(fact("0x0000000000000048"), 16), 0x48u);
  EXPECT_EQ(fb::number_or_zero(fact("48"), 16), 0x48u);
  EXPECT_EQ(fb::number_or_zero(fact("0x8000000000000008"), 16), 0x8000000000000008u);  // bit 63 kept
  EXPECT_EQ(fb::number_or_zero(fact("18446744073709551615")), 18446744073709551615u);
  EXPECT_EQ(fb::number_or_zero(fact("18446744073709551616")), 0u);  // past 2^64 - 1
  EXPECT_EQ(fb::number_or_zero(fact("+7")), 0u);
  EXPECT_EQ(fb::number_or_zero(fact("0x48")), 0u);  // hexadecimal only where asked for
  EXPECT_EQ(fb::number_or_zero(fact("-1")), 0u);    // std::stoull read this as 2^64 - 1
  EXPECT_EQ(fb::number_or_zero(fact(" 7")), 0u);
  EXPECT_EQ(fb::number_or_zero(fact("12 MiB")), 0u);
  EXPECT_EQ(fb::number_or_zero(fact("N/A")), 0u);
  EXPECT_EQ(fb::number_or_zero(fact("")), 0u);
}
