#include "analyse/run/p2p_expectations.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>

#include "analyse/expect/ceilings.hpp"
#include "analyse/expect/expectations.hpp"
#include "analyse/run/p2p_analysis.hpp"
#include "analyse/scope/gpu_names.hpp"
#include "analyse/scope/vendor_tools.hpp"

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

bool judged(const P2pMeasurement& m) {
  const auto& spec = p2p_test_spec(m.test);
  return m.samples > 0 && !spec.every_gpu && !m.note.starts_with("staged");
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

bool is_host(const P2pMeasurement& m) { return over_host_link(m.test); }

// A host copy's ceiling: the GPU's host link at its best, for the copier the test uses.
PathCeiling host_ceiling(const P2pMeasurement& m, const Topology& t) {
  const auto* g = t.find_gpu(host_gpu(m));
  return g ? host_ce_ceiling(*g, true, p2p_test_spec(m.test).copier == P2pCopier::sm) : PathCeiling{};
}

// The ceiling a copy is judged against: the peer path's, the GPU's host link at its best, or
// none (a copy within the GPU's memory).
PathCeiling ceiling_for(const P2pMeasurement& m, const Topology& t) {
  if (p2p_test_spec(m.test).path == P2pPath::local) return {};
  return is_host(m) ? host_ceiling(m, t) : peer_ceiling(m, t);
}

std::optional<Finding> below_ceiling(const P2pMeasurement& m, const Topology& t) {
  if (m.unit != P2pUnit::gbps) return std::nullopt;  // latency: judged against its expectation only
  const auto c = ceiling_for(m, t);
  if (!c.known()) return std::nullopt;
  const double floor = c.gbps * (1 - kBelowCeiling - spread(m));
  if (m.value >= floor) return std::nullopt;
  const bool host = is_host(m);
  if (host && trained_low(t.find_gpu(host_gpu(m)))) return std::nullopt;  // the link finding says it
  const auto& tools = vendor_tools(topology_vendor(t));
  return Finding{
      host ? "HOST_LINK_SLOW" : "P2P_BELOW_CEILING", Severity::warning,
      fmt::format("{} {}: {:.1f} GB/s is {:.0f}% of the path ceiling {:.1f} GB/s ({})", m.test, p2p_where(m),
                  m.value, m.value / c.gbps * 100, c.gbps, c.source),
      fmt::format("at least {:.1f} GB/s ({:.0f}% of the ceiling, less the sample spread)", floor,
                  (1 - kBelowCeiling - spread(m)) * 100),
      host ? fmt::format("check the GPU's PCIe link under load ({}), its slot and riser, and what shares "
                         "the uplink",
                         tools.pcie)
           : fmt::format("check the pair's links ({}), the PCIe path (ACS, IOMMU) and the copy engines ({})",
                         tools.links, tools.status)};
}

// Against the table (analyse/expect/sku_table.cpp): pairs by their copy-engine reads, every figure of one
// GPU on its own (host links, memory copy; host latency, where lower is better).
std::optional<Finding> below_expected(const Result& r, const P2pMeasurement& m) {
  const auto figure = expectation_figure(m.test);
  if (figure.empty()) return std::nullopt;
  const int gpu = p2p_test_spec(m.test).path == P2pPath::peer ? m.dst : host_gpu(m);
  const auto e = expected_for(r, {gpu_name(r, {gpu}), 0, 1, std::string(figure), 0, ""});
  if (!e) return std::nullopt;
  const double tolerance = expectation_tolerance(*e, spread(m));
  if (m.unit == P2pUnit::ns) {
    const double ceiling = e->value * (1 + tolerance);
    if (m.value <= ceiling) return std::nullopt;
    return Finding{
        "P2P_BELOW_EXPECTED", Severity::warning,
        fmt::format("{} {}: {:.0f} ns is {:.0f}% of the expected {:.0f} ns for {} ({})", m.test, p2p_where(m),
                    m.value, m.value / e->value * 100, e->value, gpu_name(r, {gpu}), e->source()),
        fmt::format("at most {:.0f} ns", ceiling),
        "a slow host round trip: check the CPU's power state (C-states), the IOMMU and the PCIe path "
        "(fabricbench topo)"};
  }
  const double floor = e->value * (1 - tolerance);
  if (m.value >= floor) return std::nullopt;
  return Finding{
      "P2P_BELOW_EXPECTED", Severity::warning,
      fmt::format("{} {}: {:.1f} GB/s is {:.0f}% of the expected {:.1f} GB/s for {} ({})", m.test,
                  p2p_where(m), m.value, m.value / e->value * 100, e->value, gpu_name(r, {gpu}), e->source()),
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
    if (!judged(m) || !is_host(m) || m.unit != P2pUnit::gbps) continue;
    const auto c = host_ceiling(m, *r.topology);
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
          m->test, p2p_where(*m), m->value, m->value / host_ceiling(*m, *r.topology).gbps * 100,
          host_ceiling(*m, *r.topology).gbps);
      f.hint =
          "the link stays below its maximum under load: reseat the GPU or its riser/cable, check the slot's "
          "wiring and the BIOS PCIe speed/bifurcation settings";
    }
  }
}

}  // namespace fb
