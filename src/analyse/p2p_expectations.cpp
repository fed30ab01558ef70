#include "analyse/p2p_expectations.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>

#include "analyse/ceilings.hpp"
#include "analyse/expectations.hpp"
#include "analyse/vendor_tools.hpp"

namespace fb {
namespace {

// Healthy copies on 2 x H200 reach 0.88-1.00 of their path ceiling (sm_bidir lowest;
// tests/fixtures/results): 20% below the ceiling is the lowest healthy reach less the 10%
// tolerance (docs/verdicts.md). The figure's own sample spread is added, up to 10%.
constexpr double kBelowCeiling = 0.20;
constexpr double kMaxSpread = 0.10;

double spread(const P2pMeasurement& m) {
  if (m.samples < 2 || m.value <= 0 || m.max <= m.min) return 0;
  return std::min(kMaxSpread, (m.max - m.min) / m.value);
}

std::string where(const P2pMeasurement& m) {
  auto side = [](int g) { return g < 0 ? std::string("host") : fmt::format("GPU{}", g); };
  return fmt::format("{} {} {}", side(m.src), p2p_test_spec(m.test).bidirectional ? "<->" : "->",
                     side(m.dst));
}

bool judged(const P2pMeasurement& m) {
  const auto& spec = p2p_test_spec(m.test);
  return spec.unit == P2pUnit::gbps && m.samples > 0 && !spec.every_gpu && !m.note.starts_with("staged");
}

PathCeiling peer_ceiling(const P2pMeasurement& m, const Topology& t) {
  const auto& spec = p2p_test_spec(m.test);
  const auto* p = t.find_pair(m.src, m.dst);
  if (p == nullptr || spec.ceiling == P2pCeiling::none) return {};
  auto c = spec.ceiling == P2pCeiling::sm ? pair_sm_ceiling(*p) : pair_ce_ceiling(*p);
  if (spec.bidirectional) c.gbps *= 2;
  return c;
}

bool trained_low(const TopoGpu* g) {
  return g != nullptr && ((g->pcie.gen > 0 && g->pcie.gen < g->pcie.max_gen) ||
                          (g->pcie.width > 0 && g->pcie.width < g->pcie.max_width));
}

int host_gpu(const P2pMeasurement& m) { return m.src < 0 ? m.dst : m.src; }

bool is_host(const P2pMeasurement& m) { return p2p_test_spec(m.test).path != P2pPath::peer; }

// The ceiling a copy is judged against: the peer path's, or the GPU's host link at its best.
PathCeiling ceiling_for(const P2pMeasurement& m, const Topology& t) {
  if (!is_host(m)) return peer_ceiling(m, t);
  const auto* g = t.find_gpu(host_gpu(m));
  return g ? host_ce_ceiling(*g, true) : PathCeiling{};
}

std::optional<Finding> below_ceiling(const P2pMeasurement& m, const Topology& t) {
  const auto c = ceiling_for(m, t);
  if (!c.known()) return std::nullopt;
  const double floor = c.gbps * (1 - kBelowCeiling - spread(m));
  if (m.value >= floor) return std::nullopt;
  const bool host = is_host(m);
  if (host && trained_low(t.find_gpu(host_gpu(m)))) return std::nullopt;  // the link finding says it
  const auto& tools = vendor_tools(topology_vendor(t));
  return Finding{
      host ? "HOST_LINK_SLOW" : "P2P_BELOW_CEILING", Severity::warning,
      fmt::format("{} {}: {:.1f} GB/s is {:.0f}% of the path ceiling {:.1f} GB/s ({})", m.test, where(m),
                  m.value, m.value / c.gbps * 100, c.gbps, c.source),
      fmt::format("at least {:.1f} GB/s ({:.0f}% of the ceiling, less the sample spread)", floor,
                  (1 - kBelowCeiling - spread(m)) * 100),
      host ? fmt::format("check the GPU's PCIe link under load ({}), its slot and riser, and what shares "
                         "the uplink",
                         tools.pcie)
           : fmt::format("check the pair's links ({}), the PCIe path (ACS, IOMMU) and the copy engines ({})",
                         tools.links, tools.status)};
}

std::optional<Finding> below_expected(const Result& r, const P2pMeasurement& m) {
  const bool host = is_host(m);
  if (!host && m.test != P2pTest::ce_read) return std::nullopt;  // the table holds copy-engine reads
  const int gpu = host ? host_gpu(m) : m.dst;
  const auto e = expected_for(gpu_name(r, {gpu}), 0, host ? "host" : "pair", 0);
  if (!e) return std::nullopt;
  const double floor = e->gbps * (1 - expectation_tolerance(*e, spread(m)));
  if (m.value >= floor) return std::nullopt;
  return Finding{
      "P2P_BELOW_EXPECTED", Severity::warning,
      fmt::format("{} {}: {:.1f} GB/s is {:.0f}% of the expected {:.1f} GB/s for {} ({})", m.test, where(m),
                  m.value, m.value / e->gbps * 100, e->gbps, gpu_name(r, {gpu}), e->source()),
      fmt::format("at least {:.1f} GB/s", floor),
      "compare with `fabricbench topo` (link state) and rerun on an idle machine"};
}

}  // namespace

std::vector<Finding> check_p2p_expectations(const Result& r) {
  std::vector<Finding> out;
  if (!r.topology) return out;
  for (const auto& m : r.p2p) {
    if (!judged(m)) continue;
    if (auto f = below_ceiling(m, *r.topology))
      out.push_back(std::move(*f));
    else if (auto g = below_expected(r, m))
      out.push_back(std::move(*g));
  }
  return out;
}

void escalate_link_findings(const Result& r, std::vector<Finding>& findings) {
  if (!r.topology) return;
  std::map<int, const P2pMeasurement*> slowest;  // per GPU: its slowest host copy below the ceiling
  for (const auto& m : r.p2p) {
    if (!judged(m) || !is_host(m)) continue;
    const auto* g = r.topology->find_gpu(host_gpu(m));
    const auto c = g ? host_ce_ceiling(*g, true) : PathCeiling{};
    if (!c.known() || m.value >= c.gbps * (1 - kBelowCeiling - spread(m))) continue;
    auto& s = slowest[host_gpu(m)];
    if (s == nullptr || m.value < s->value) s = &m;
  }
  for (auto& f : findings) {
    if (f.code != "TOPO_PCIE_SPEED_DOWN" && f.code != "TOPO_PCIE_WIDTH_DOWN") continue;
    for (const auto& [gpu, m] : slowest) {
      if (!f.evidence.starts_with(fmt::format("GPU{} ", gpu))) continue;
      f.severity = Severity::warning;
      f.evidence += fmt::format(
          "; under load {} {} reached {:.1f} GB/s, {:.0f}% of what the link carries at "
          "its maximum ({:.1f} GB/s)",
          m->test, where(*m), m->value,
          m->value / host_ce_ceiling(*r.topology->find_gpu(gpu), true).gbps * 100,
          host_ce_ceiling(*r.topology->find_gpu(gpu), true).gbps);
      f.hint =
          "the link stays below its maximum under load: reseat the GPU or its riser/cable, check the slot's "
          "wiring and the BIOS PCIe speed/bifurcation settings";
    }
  }
}

}  // namespace fb
