#include "analyse/run/p2p_analysis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string_view>

#include "analyse/scope/vendor_tools.hpp"
#include "topo/link_rates.hpp"

namespace fb {
namespace {

bool is_bandwidth(const P2pMeasurement& m) { return m.unit == P2pUnit::gbps && m.samples > 0; }

// The pair's ceiling for the kind of copy the test makes (0: none applies or not measured).
double ceiling_of(const P2pTestSpec& spec, const TopoPair& p) {
  switch (spec.ceiling) {
    case P2pCeiling::sm:
      return p.sm_ceiling_gbps;
    case P2pCeiling::copy_engine:
      return p.ce_ceiling_gbps;
    case P2pCeiling::none:
      return 0;
  }
  return 0;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const auto n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::vector<double> values_besides(const std::vector<const P2pMeasurement*>& members,
                                   const P2pMeasurement* m) {
  std::vector<double> out;
  for (const auto* o : members)
    if (o != m) out.push_back(o->value);
  return out;
}

}  // namespace

std::string p2p_where(const P2pMeasurement& m) {
  if (p2p_test_spec(m.test).path == P2pPath::local) return fmt::format("GPU{} memory", m.src);
  auto side = [](int g) { return g < 0 ? std::string("host") : fmt::format("GPU{}", g); };
  const bool bidir = p2p_test_spec(m.test).bidirectional;
  return fmt::format("{} {} {}", side(m.src), bidir ? "<->" : "->", side(m.dst));
}

void attach_p2p_ceilings(std::vector<P2pMeasurement>& ms, const Topology& t) {
  for (auto& m : ms) {
    const auto& spec = p2p_test_spec(m.test);
    if (spec.unit != P2pUnit::gbps) continue;
    if (spec.path == P2pPath::local) continue;  // no wire: the GPU's own memory
    if (over_host_link(m.test)) {
      const auto* g = t.find_gpu(m.src < 0 ? m.dst : m.src);
      if (g) m.wire_gbps = pcie_gbps(g->pcie.gen, g->pcie.width);
      continue;
    }
    const auto* p = t.find_pair(m.src, m.dst);
    if (!p) continue;
    const double directions = spec.bidirectional ? 2.0 : 1.0;
    m.wire_gbps = p->wire_gbps * directions;
    m.ceiling_gbps = ceiling_of(spec, *p) * directions;
  }
}

double efficiency(const P2pMeasurement& m) {
  return (m.unit == P2pUnit::gbps && m.wire_gbps > 0) ? m.value / m.wire_gbps : 0.0;
}

std::string connection_class(const P2pMeasurement& m, const Topology& t) {
  if (p2p_test_spec(m.test).path == P2pPath::local) return "memory";
  if (over_host_link(m.test)) return "host";
  const auto* p = t.find_pair(m.src, m.dst);
  return p ? p->connection.to_string() : "?";
}

namespace {

// One figure below the median of the same test on the other GPUs, host links or pairs.
Finding slow_among_peers(const P2pMeasurement& m, const std::string& cls, std::size_t others, double ref,
                         double margin, const VendorTools& tools) {
  const bool host = cls == "host";
  const bool memory = cls == "memory";
  const auto evidence = fmt::format(
      "{} {}: {:.1f} GB/s; median of the other {} {} {} is {:.1f} GB/s ({:+.0f}%)", m.test, p2p_where(m),
      m.value, others, cls, host ? "links" : (memory ? "copies" : "pairs"), ref, (m.value / ref - 1) * 100);
  const auto expected = fmt::format("within {:.0f}% of its peers", margin * 100);
  if (memory)
    return {"P2P_SLOW_MEMORY", Severity::warning, evidence, expected,
            fmt::format("check that GPU's clocks and throttle reasons ({}) and its memory errors ({})",
                        tools.clocks, tools.ecc)};
  if (host)
    return {"P2P_SLOW_HOST_LINK", Severity::warning, evidence, expected,
            "check that GPU's PCIe slot, riser and link state (fabricbench topo) and what shares its uplink"};
  return {"P2P_SLOW_PAIR", Severity::warning, evidence, expected,
          fmt::format("check that pair's links ({}) and its PCIe path (fabricbench topo)", tools.links)};
}

}  // namespace

std::vector<Finding> check_p2p(const std::vector<P2pMeasurement>& ms, const Topology& t, double margin) {
  std::vector<Finding> out;
  const auto& tools = vendor_tools(topology_vendor(t));
  // Keyed by the test's name, so that findings come in the order they always have.
  std::map<std::pair<std::string_view, std::string>, std::vector<const P2pMeasurement*>> groups;
  for (const auto& m : ms)
    if (is_bandwidth(m)) groups[{to_string(m.test), connection_class(m, t)}].push_back(&m);
  for (const auto& [key, members] : groups) {
    if (members.size() < 2) continue;
    for (const auto* m : members) {
      // Against the others only: with two members a median that includes the slow one halves
      // the gap (one direction 40% low read as -25%).
      const auto others = values_besides(members, m);
      const double ref = median(others);
      if (m->value >= (1.0 - margin) * ref) continue;
      out.push_back(slow_among_peers(*m, key.second, others.size(), ref, margin, tools));
    }
  }
  for (const auto& m : ms) {
    if (m.wrong > 0)
      out.push_back(
          {"P2P_WRONG_DATA", Severity::error,
           fmt::format("{} {}: {} of {} words wrong after the copies", m.test, p2p_where(m), m.wrong,
                       m.bytes / 4),
           "every word copied intact",
           fmt::format("a copy that corrupts data points at failing hardware: rerun, check `{}`, and take "
                       "the GPU out of service if it repeats",
                       tools.ecc)});
    if (m.test == P2pTest::ce_read && m.note.starts_with("staged"))  // once per direction
      out.push_back({"P2P_STAGED", Severity::info, fmt::format("{} {}: {}", m.test, p2p_where(m), m.note),
                     "direct peer access", "see TOPO_NO_P2P in `fabricbench topo`"});
  }
  return out;
}

}  // namespace fb
