#include "analyse/p2p_analysis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "topo/link_rates.hpp"

namespace fb {
namespace {

const TopoPair* find_pair(const Topology& t, int a, int b) {
  for (const auto& p : t.pairs)
    if ((p.a == a && p.b == b) || (p.a == b && p.b == a)) return &p;
  return nullptr;
}

const TopoGpu* find_gpu(const Topology& t, int index) {
  for (const auto& g : t.gpus)
    if (g.index == index) return &g;
  return nullptr;
}

bool is_bandwidth(const P2pMeasurement& m) { return m.unit == "GB/s" && m.samples > 0; }
bool is_host_test(const P2pMeasurement& m) { return m.src < 0 || m.dst < 0; }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const auto n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string where(const P2pMeasurement& m) {
  auto side = [](int g) { return g < 0 ? std::string("host") : fmt::format("GPU{}", g); };
  const bool bidir = m.test.ends_with("_bidir");
  return fmt::format("{} {} {}", side(m.src), bidir ? "<->" : "->", side(m.dst));
}

}  // namespace

void attach_p2p_ceilings(std::vector<P2pMeasurement>& ms, const Topology& t) {
  for (auto& m : ms) {
    if (m.unit != "GB/s") continue;
    if (is_host_test(m)) {
      const auto* g = find_gpu(t, m.src < 0 ? m.dst : m.src);
      if (g) m.wire_gbps = pcie_gbps(g->pcie.gen, g->pcie.width);
      continue;
    }
    const auto* p = find_pair(t, m.src, m.dst);
    if (!p) continue;
    const double directions = m.test.ends_with("_bidir") ? 2.0 : 1.0;
    m.wire_gbps = p->wire_gbps * directions;
    m.ceiling_gbps = (m.test.starts_with("sm_") ? p->sm_ceiling_gbps : p->ce_ceiling_gbps) * directions;
  }
}

double efficiency(const P2pMeasurement& m) {
  return (m.unit == "GB/s" && m.wire_gbps > 0) ? m.value / m.wire_gbps : 0.0;
}

std::string connection_class(const P2pMeasurement& m, const Topology& t) {
  if (is_host_test(m)) return "host";
  const auto* p = find_pair(t, m.src, m.dst);
  return p ? p->connection : "?";
}

std::vector<Finding> check_p2p(const std::vector<P2pMeasurement>& ms, const Topology& t, double margin) {
  std::vector<Finding> out;
  std::map<std::pair<std::string, std::string>, std::vector<const P2pMeasurement*>> groups;
  for (const auto& m : ms)
    if (is_bandwidth(m)) groups[{m.test, connection_class(m, t)}].push_back(&m);
  for (const auto& [key, members] : groups) {
    if (members.size() < 2) continue;
    std::vector<double> values;
    for (const auto* m : members) values.push_back(m->value);
    const double ref = median(values);
    for (const auto* m : members) {
      if (m->value >= (1.0 - margin) * ref) continue;
      const bool host = key.second == "host";
      out.push_back({host ? "P2P_SLOW_HOST_LINK" : "P2P_SLOW_PAIR", "warning",
                     fmt::format("{} {}: {:.1f} GB/s; median of the {} {} {} is {:.1f} GB/s ({:+.0f}%)", m->test,
                                 where(*m), m->value, members.size(), key.second, host ? "links" : "pairs", ref,
                                 (m->value / ref - 1) * 100),
                     fmt::format("within {:.0f}% of its peers", margin * 100),
                     host ? "check that GPU's PCIe slot, riser and link state (fabricbench topo) and what shares "
                            "its uplink"
                          : "check that pair's links (nvidia-smi nvlink -s / -e for errors) and its PCIe path "
                            "(fabricbench topo)"});
    }
  }
  for (const auto& m : ms) {
    if (m.wrong > 0)
      out.push_back({"P2P_WRONG_DATA", "error",
                     fmt::format("{} {}: {} of {} words wrong after the copies", m.test, where(m), m.wrong, m.bytes / 4),
                     "every word copied intact",
                     "a copy that corrupts data points at failing hardware: rerun, check `nvidia-smi -q -d ECC`, "
                     "and take the GPU out of service if it repeats"});
    if (m.test == "ce_read" && m.note.starts_with("staged"))  // once per direction
      out.push_back({"P2P_STAGED", "info", fmt::format("{} {}: {}", m.test, where(m), m.note),
                     "direct peer access", "see TOPO_NO_P2P in `fabricbench topo`"});
  }
  return out;
}

}  // namespace fb
