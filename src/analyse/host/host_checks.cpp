#include "analyse/host/host_checks.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>

#include "analyse/expect/gpu_hardware.hpp"
#include "analyse/scope/host_scope.hpp"
#include "topo/host_probe_pci.hpp"
#include "topo/sysfs_probe.hpp"

namespace fb {
namespace {

const TopoGpu* topo_gpu(const Topology& t, int index) { return t.find_gpu(index); }

bool in_scope(const HostScope& s, const TopoGpu* g) {
  return g != nullptr && std::find(s.bus_ids.begin(), s.bus_ids.end(), g->bus_id) != s.bus_ids.end();
}

// The run's GPU pairs whose peer traffic crosses PCIe (no NVLink or xGMI between them).
std::vector<const TopoPair*> pcie_pairs(const Result& r, const HostScope& s) {
  std::vector<const TopoPair*> out;
  if (!r.topology) return out;
  for (const auto& p : r.topology->pairs) {
    const auto* a = r.topology->find_gpu(p.a);
    const auto* b = r.topology->find_gpu(p.b);
    // GPUs without peer access by design never send peer traffic: ACS and the IOMMU do not change their path.
    if (a != nullptr && b != nullptr && (no_p2p_by_design(a->name) || no_p2p_by_design(b->name))) continue;
    if (!p.connection.is_gpu_fabric() && in_scope(s, topo_gpu(*r.topology, p.a)) &&
        in_scope(s, topo_gpu(*r.topology, p.b)))
      out.push_back(&p);
  }
  return out;
}

bool p2p_broken(const Result& r, const TopoPair& p) { return (p.p2p && !*p.p2p) || nccl_fell_back(r); }

// The bridges peer traffic between two GPUs passes: below their last common PCI component,
// without the host bridge ("pci0000:00") and the GPUs themselves.
std::vector<std::string> bridges_between(const TopoGpu& a, const TopoGpu& b) {
  std::size_t common = 0;
  while (common < a.pci_path.size() && common < b.pci_path.size() && a.pci_path[common] == b.pci_path[common])
    ++common;
  std::vector<std::string> out;
  for (const auto* g : {&a, &b})
    for (std::size_t i = std::max<std::size_t>(common, 1); i + 1 < g->pci_path.size(); ++i)
      out.push_back(normalize_bus_id(g->pci_path[i]));
  return out;
}

const BridgeAcs* bridge_facts(const HostFacts& f, const std::string& bus_id) {
  const auto it = std::find_if(f.bridges.begin(), f.bridges.end(),
                               [&](const BridgeAcs& b) { return b.bus_id == bus_id; });
  return it == f.bridges.end() ? nullptr : &*it;
}

// The ACS Control register as recorded ("0x001d"); 0 for "none" or an unreadable value.
std::uint16_t acs_control(const HostFact& f) {
  if (!f.known() || f.value == "none") return 0;
  try {
    return static_cast<std::uint16_t>(std::stoul(f.value, nullptr, 16));
  } catch (const std::exception&) {
    return 0;
  }
}

std::string pair_label(const Result& r, const TopoPair& p) {
  return fmt::format("{} - {}", gpu_label(r, r.topology->find_gpu(p.a)->bus_id),
                     gpu_label(r, r.topology->find_gpu(p.b)->bus_id));
}

std::vector<Finding> check_acs(const Result& r, const HostScope& s) {
  std::map<std::string, std::uint16_t> redirecting;  // bridge -> control
  std::vector<std::string> pairs;
  bool broken = false;
  for (const auto* p : pcie_pairs(r, s)) {
    bool hit = false;
    for (const auto& bus : bridges_between(*r.topology->find_gpu(p->a), *r.topology->find_gpu(p->b))) {
      const auto* b = bridge_facts(*s.facts, bus);
      const auto control = b ? acs_control(b->acs_control) : std::uint16_t{0};
      if ((control & kAcsRedirectsPeerTraffic) == 0) continue;
      redirecting[bus] = control;
      hit = true;
    }
    if (!hit) continue;
    pairs.push_back(pair_label(r, *p));
    broken = broken || p2p_broken(r, *p);
  }
  if (redirecting.empty()) return {};
  std::vector<std::string> bridges;
  bridges.reserve(redirecting.size());
  for (const auto& [bus, control] : redirecting)
    bridges.push_back(fmt::format("{} ACSCtl {:#06x} ({}) from /sys/bus/pci/devices/{}/config", bus, control,
                                  acs_bit_names(control), bus));
  return {{"HOST_ACS_REDIRECT", broken ? Severity::error : Severity::warning,
           fmt::format(
               "PCIe ACS redirects peer traffic between {} to the root complex{}: {}", fmt::join(pairs, ", "),
               broken ? ", and peer-to-peer is broken (no peer access, or NCCL fell back to SHM/NET)" : "",
               fmt::join(bridges, "; ")),
           "ACS P2P redirect (ReqRedir, CmpltRedir, EgressCtrl) off on the bridges between peer GPUs",
           "turn ACS off in the BIOS (often 'PCIe ACS' or 'ACS Control'), or as root until the next boot: "
           "`setpci -s <bridge> ECAP_ACS+0x6.w=0000` for each bridge listed (NCCL's troubleshooting guide, "
           "'PCI Access Control Services'); keep it on only where VMs need the isolation"}};
}

bool translates_dma(const HostFact& f) { return f.value == "DMA" || f.value == "DMA-FQ"; }

std::vector<Finding> check_iommu(const Result& r, const HostScope& s) {
  std::vector<std::string> translated;
  for (const auto& bus : s.bus_ids)
    if (const auto* g = gpu_facts(s, bus); g && translates_dma(g->iommu_group_type))
      translated.push_back(fmt::format("{}: {}", gpu_label(r, bus), cite(g->iommu_group_type)));
  if (translated.empty()) return {};
  const auto pairs = pcie_pairs(r, s);
  const bool broken =
      std::any_of(pairs.begin(), pairs.end(), [&](const TopoPair* p) { return p2p_broken(r, *p); });
  const Severity severity = pairs.empty() ? Severity::info : broken ? Severity::error : Severity::warning;
  const auto& cmdline = s.facts->kernel_cmdline;
  const std::string boot = !cmdline.known() ? ""
                           : cmdline.value.find("iommu=pt") != std::string::npos
                               ? "; the kernel command line has iommu=pt but the groups translate"
                               : "; no iommu=pt on the kernel command line (/proc/cmdline)";
  return {
      {"HOST_IOMMU_TRANSLATION", severity,
       fmt::format("the IOMMU translates the GPUs' DMA (not passthrough): {}{}{}",
                   fmt::join(translated, ", "), boot,
                   pairs.empty() ? " (no PCIe peer traffic in this run: host copies only)"
                   : broken      ? "; peer-to-peer over PCIe is broken"
                                 : ""),
       "IOMMU off or in passthrough (iommu_group/type 'identity') for GPUs that talk over PCIe",
       "boot with iommu=pt (add it to GRUB_CMDLINE_LINUX, update-grub, reboot), or turn the IOMMU off in the "
       "BIOS where no VM needs it; under translation, PCIe peer traffic is redirected through the IOMMU"}};
}

}  // namespace

std::vector<Finding> check_host_pcie(const Result& r) {
  const auto s = host_scope(r);
  if (s.facts == nullptr) return {};
  auto out = check_acs(r, s);
  auto iommu = check_iommu(r, s);
  out.insert(out.end(), iommu.begin(), iommu.end());
  return out;
}

std::vector<Finding> check_host_unreadable(const Result& r) {
  const auto s = host_scope(r);
  if (s.facts == nullptr) return {};
  std::set<std::string> unread;
  auto note = [&](const std::string& what, const HostFact& f) {
    // What a captured tree does not hold is not this machine's, nor the capture's host's, to judge.
    if (!f.known() && !f.note.empty() && !f.not_captured())
      unread.insert(fmt::format("{} ({}: {})", what, f.source, f.note));
  };
  for (const auto* p : pcie_pairs(r, s))
    for (const auto& bus : bridges_between(*r.topology->find_gpu(p->a), *r.topology->find_gpu(p->b)))
      if (const auto* b = bridge_facts(*s.facts, bus)) note("ACS on bridge " + bus, b->acs_control);
  note("Xid errors", s.facts->xid_count);
  note("NUMA balancing", s.facts->numa_balancing);
  note("/dev/shm size", s.facts->shm_bytes);
  note("the kernel command line", s.facts->kernel_cmdline);
  for (const auto& bus : s.bus_ids)
    if (const auto* g = gpu_facts(s, bus)) {
      note("NVML health of " + gpu_label(r, bus), g->persistence_mode);
      note("IOMMU group of " + gpu_label(r, bus), g->iommu_group_type);
    }
  if (unread.empty()) return {};
  return {{"HOST_NOT_READABLE", Severity::info, fmt::format("not checked: {}", fmt::join(unread, "; ")),
           "every host fact readable",
           "run as root (ACS and the kernel log need it) where these checks matter"}};
}

std::vector<Finding> check_host(const Result& r) {
  std::vector<Finding> out;
  for (auto* rule : {check_host_pcie, check_host_kernel, check_host_gpus, check_host_unreadable}) {
    auto f = rule(r);
    out.insert(out.end(), f.begin(), f.end());
  }
  return out;
}

}  // namespace fb
