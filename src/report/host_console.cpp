#include "report/host_console.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <string>
#include <vector>

#include "topo/host_probe_pci.hpp"

namespace fb {
namespace {

// One fact; one never asked for (no value, no reason: e.g. NVML for a captured tree) is left out,
// one not in the captured tree is counted in `uncaptured` (one line at the end).
void line(std::ostream& out, const std::string& what, const HostFact& f, const std::string& shown = "",
          std::vector<std::string>* uncaptured = nullptr) {
  if (f.not_captured() && uncaptured != nullptr) uncaptured->push_back(what);
  if ((!f.known() && f.note.empty()) || f.not_captured()) return;
  const std::string value = f.known() ? (shown.empty() ? f.value : shown) : "? (" + f.note + ")";
  fmt::print(out, "#   {:<28} {:<24} {}\n", what, value, f.source);
}

std::string shm_text(const HostFact& f) {
  try {
    return fmt::format("{} MiB", std::stoull(f.value) >> 20);
  } catch (const std::exception&) {
    return f.value;
  }
}

std::string acs_text(const HostFact& f) {
  if (!f.known() || f.value == "none") return "";
  try {
    return f.value + " " + acs_bit_names(static_cast<std::uint16_t>(std::stoul(f.value, nullptr, 16)));
  } catch (const std::exception&) {
    return "";
  }
}

}  // namespace

void print_host_facts(std::ostream& out, const HostFacts& facts) {
  fmt::print(out, "# host configuration (HOST_* findings above judge it)\n");
  std::vector<std::string> uncaptured;
  line(out, "kernel.numa_balancing", facts.numa_balancing, "", &uncaptured);
  line(out, "IOMMU units", facts.iommu_units, "", &uncaptured);
  line(out, "/dev/shm", facts.shm_bytes, shm_text(facts.shm_bytes), &uncaptured);
  line(out, "Xid lines in the kernel log", facts.xid_count, "", &uncaptured);
  std::size_t bridges = 0;
  for (const auto& b : facts.bridges) {
    bridges += b.acs_control.not_captured() ? 1 : 0;
    line(out, "ACS control " + b.bus_id, b.acs_control, acs_text(b.acs_control));
  }
  if (bridges > 0) uncaptured.push_back(fmt::format("ACS of {} bridge{}", bridges, bridges == 1 ? "" : "s"));
  if (facts.kernel_cmdline.not_captured()) uncaptured.emplace_back("the kernel command line");
  for (const auto& g : facts.gpus) {
    line(out, "IOMMU group " + g.bus_id, g.iommu_group_type);
    line(out, "persistence " + g.bus_id, g.persistence_mode);
    line(out, "clock event reasons " + g.bus_id, g.clocks_event_reasons);
    line(out, "SM clock max (MHz) " + g.bus_id, g.sm_clock_max_mhz);
    line(out, "SM clock target (MHz) " + g.bus_id, g.sm_clock_target_mhz);
    line(out, "uncorrected ECC " + g.bus_id, g.ecc_uncorrected_volatile);
    line(out, "row remap pending " + g.bus_id, g.remapped_rows_pending);
  }
  if (!uncaptured.empty())
    fmt::print(out, "#   {} (not judged): {}\n", kNotCaptured, fmt::join(uncaptured, ", "));
  out.flush();
}

}  // namespace fb
