#include "report/html/html_fabric.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "analyse/expect/ceilings.hpp"
#include "report/svg_chart.hpp"

namespace fb {
namespace {

constexpr double kBarTop = 34, kBarH = 26;
constexpr double kWeak = 0.8;  // measured under this share of the ceiling: drawn red

bool via_switch(const Topology& t) {
  return std::any_of(t.gpus.begin(), t.gpus.end(), [](const TopoGpu& g) {
    return std::any_of(g.links.begin(), g.links.end(),
                       [](const FabricLink& l) { return l.remote_type == "switch"; });
  });
}

std::string bar_label(const Topology& t, int fabric_pairs) {
  const TopoPair* first = nullptr;
  double lo = 1e300, hi = 0;
  for (const auto& p : t.pairs)
    if (p.connection.is_gpu_fabric()) {
      first = first ? first : &p;
      lo = std::min(lo, p.wire_gbps);
      hi = std::max(hi, p.wire_gbps);
    }
  const std::string kind = via_switch(t)                                        ? "NVSwitch"
                           : first->connection.kind() == Connection::Kind::xgmi ? "xGMI, direct links"
                                                                                : "NVLink, direct links";
  const std::string wire = hi > lo + 0.5 ? fmt::format("{:.0f}-{:.0f}", lo, hi) : fmt::format("{:.0f}", hi);
  return fmt::format("{} · {} of {} GPU pairs on the fabric · wire {} GB/s per direction", kind, fabric_pairs,
                     t.pairs.size(), wire);
}

// "18 links" from the GPU's own link list, else the links of its fabric pairs summed.
std::pair<std::string, bool> link_text(const Topology& t, const TopoGpu& g) {
  if (!g.links.empty()) {
    const auto active =
        std::count_if(g.links.begin(), g.links.end(), [](const FabricLink& l) { return l.active; });
    if (active == static_cast<long>(g.links.size())) return {fmt::format("{} links", active), false};
    return {fmt::format("{} of {} links up", active, g.links.size()), true};
  }
  int links = 0, peers = 0;
  for (const auto& p : t.pairs)
    if ((p.a == g.index || p.b == g.index) && p.connection.is_gpu_fabric()) links += p.links, ++peers;
  return {fmt::format("{} links, {} peers", links, peers), false};
}

struct Measured {
  double value = -1;  // lowest copy-engine read from the GPU to a fabric peer; -1: none
  double expected = 0;
  double wire = 0;
};

Measured measured_from(const Result& r, const TopoGpu& g) {
  Measured m;
  for (const auto& p : r.topology->pairs)
    if ((p.a == g.index || p.b == g.index) && p.connection.is_gpu_fabric())
      m.wire = std::max(m.wire, p.wire_gbps);
  for (const auto& x : r.p2p) {
    if (x.test != P2pTest::ce_read || x.src != g.index || x.dst < 0) continue;
    const auto* pair = r.topology->find_pair(x.src, x.dst);
    if (!pair || !pair->connection.is_gpu_fabric()) continue;
    if (m.value < 0 || x.value < m.value) {
      m.value = x.value;
      const auto ceiling = pair_ce_ceiling(*pair);  // xGMI's from RCCL's model where the topology has none
      m.expected = ceiling.known() ? ceiling.gbps : pair->wire_gbps;
    }
  }
  return m;
}

std::string edge(const Result& r, const TopoGpu& g, double x) {
  const auto [links, links_bad] = link_text(*r.topology, g);
  const auto m = measured_from(r, g);
  const bool weak = m.value >= 0 && m.expected > 0 && m.value < kWeak * m.expected;
  const std::string figure = m.value >= 0 ? fmt::format("{:.0f} of {:.0f} GB/s", m.value, m.expected)
                                          : fmt::format("wire {:.0f} GB/s", m.wire);
  const std::string why = m.value >= 0 ? fmt::format(
                                             "lowest copy-engine read from GPU{} to a fabric peer, against "
                                             "that pair's copy-engine ceiling",
                                             g.index)
                                       : "not measured: the wire's peak per direction";
  constexpr const char* kHalo = "paint-order=\"stroke\" stroke=\"#fff\" stroke-width=\"4\"";
  return fmt::format(
      "<g class=\"fabric-edge\" data-gpu=\"{0}\"><line x1=\"{1}\" y1=\"{2}\" x2=\"{1}\" y2=\"{3}\" "
      "stroke=\"#2e7d32\" stroke-width=\"3\"/><text x=\"{1}\" y=\"{4}\" text-anchor=\"middle\" fill=\"{5}\" "
      "{6}>{7}</text>"
      "<text class=\"measured\" x=\"{1}\" y=\"{8}\" text-anchor=\"middle\" fill=\"{9}\" "
      "{6}>{10}<title>{11}</title>"
      "</text></g>\n",
      g.index, x, kBarTop + kBarH, kGpuTop, kBarTop + kBarH + 22, links_bad ? "#c0392b" : "#1b5e20", kHalo,
      escape_html(links), kBarTop + kBarH + 40, weak ? "#c0392b" : "#333", escape_html(figure),
      escape_html(why));
}

}  // namespace

std::string fabric_svg(const Result& r, const std::vector<const TopoGpu*>& order, double width) {
  const auto& t = *r.topology;
  const int fabric_pairs = static_cast<int>(std::count_if(
      t.pairs.begin(), t.pairs.end(), [](const TopoPair& p) { return p.connection.is_gpu_fabric(); }));
  if (order.size() == 1)
    return fmt::format(
        "<text class=\"no-fabric one-gpu\" x=\"{}\" y=\"{}\" fill=\"#555\">One GPU: no links between GPUs to "
        "draw; its own figures are under \"Each GPU on its own\"</text>\n",
        kMargin, kBarTop + 40);
  if (fabric_pairs == 0)
    return fmt::format(
        "<text class=\"no-fabric\" x=\"{}\" y=\"{}\" fill=\"#555\">No GPU fabric: traffic between GPUs "
        "crosses PCIe "
        "(and the CPUs' interconnect between sockets)</text>\n",
        kMargin, kBarTop + 40);
  std::string svg = fmt::format(
      "<g class=\"fabric\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"5\" fill=\"#e8f5e9\" "
      "stroke=\"#2e7d32\"/><text x=\"{}\" y=\"{}\" text-anchor=\"middle\" "
      "font-weight=\"bold\">{}</text></g>\n",
      kMargin, kBarTop, width - 2 * kMargin, kBarH, width / 2, kBarTop + 17,
      escape_html(bar_label(t, fabric_pairs)));
  for (std::size_t i = 0; i < order.size(); ++i) {
    const auto& g = *order[i];
    const bool on_fabric = std::any_of(t.pairs.begin(), t.pairs.end(), [&](const TopoPair& p) {
      return (p.a == g.index || p.b == g.index) && p.connection.is_gpu_fabric();
    });
    if (on_fabric) svg += edge(r, g, kMargin + kSlot * (static_cast<double>(i) + 0.5));
  }
  return svg;
}

}  // namespace fb
