#include "report/html/html_topology.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "report/html/html_fabric.hpp"
#include "report/html/html_heatmap.hpp"
#include "report/svg_chart.hpp"

namespace fb {
namespace {

constexpr double kGpuH = 58, kNodeH = 36, kLevel = 62;

// A box of the PCIe tree and the GPUs beneath it (their x positions set its own).
struct TreeNode {
  std::string kind;  // "switch", "rc", "numa"
  std::string line1, line2;
  int level = 0;  // 0: just under the GPUs
  std::vector<double> child_x;
  double x = 0;
};

std::string short_bdf(const std::string& bdf) { return bdf.rfind("0000:", 0) == 0 ? bdf.substr(5) : bdf; }

std::string box(double cx, double y, double h, const std::string& cls, const std::string& l1,
                const std::string& l2, const std::string& l2_fill = "#333") {
  return fmt::format(
      "<g class=\"node {}\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"5\"/><text x=\"{}\" "
      "y=\"{}\" "
      "text-anchor=\"middle\" font-weight=\"bold\">{}</text><text x=\"{}\" y=\"{}\" text-anchor=\"middle\" "
      "fill=\"{}\">{}</text></g>\n",
      cls, cx - kBoxW / 2, y, kBoxW, h, cx, y + 15, escape_html(l1), cx, y + 30, l2_fill,
      escape_html(l2.size() > 20 ? l2.substr(0, 19) + "…" : l2));
}

// Switch upstream ports: every second bridge after the root port, the GPU excluded.
std::vector<std::string> switches_of(const TopoGpu& g) {
  std::vector<std::string> out;
  for (std::size_t i = 2; i + 1 < g.pci_path.size(); i += 2) out.push_back(g.pci_path[i]);
  return out;
}

std::vector<const TopoGpu*> drawing_order(const Topology& t) {
  std::vector<const TopoGpu*> gpus;
  gpus.reserve(t.gpus.size());
  for (const auto& g : t.gpus) gpus.push_back(&g);
  std::sort(gpus.begin(), gpus.end(), [](const TopoGpu* a, const TopoGpu* b) {
    return std::tie(a->numa_node, a->pci_path, a->index) < std::tie(b->numa_node, b->pci_path, b->index);
  });
  return gpus;
}

// The PCIe tree's boxes, keyed by what they are, with the x of every GPU beneath them.
std::map<std::string, TreeNode> pcie_tree(const Topology& t, const std::vector<const TopoGpu*>& order,
                                          int& switch_levels) {
  switch_levels = 0;
  for (const auto* g : order)
    switch_levels = std::max(switch_levels, static_cast<int>(switches_of(*g).size()));
  std::map<std::string, TreeNode> nodes;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const auto& g = *order[i];
    const double x = kMargin + kSlot * (static_cast<double>(i) + 0.5);
    const auto sw = switches_of(g);
    for (std::size_t k = 0; k < sw.size(); ++k) {
      auto& n = nodes["sw:" + sw[k]];
      n = {"switch", "PCIe switch", short_bdf(sw[k]), switch_levels - 1 - static_cast<int>(k), n.child_x, 0};
      n.child_x.push_back(x);
    }
    if (!g.pci_path.empty()) {
      auto& rc = nodes["rc:" + g.pci_path[0]];
      rc = {"rc", "Root complex", g.pci_path[0], switch_levels, rc.child_x, 0};
      rc.child_x.push_back(x);
    }
    auto& numa = nodes[fmt::format("numa:{}", g.numa_node)];
    const auto cpus = t.numa_cpulists.find(g.numa_node);
    numa = {"numa",
            g.numa_node >= 0 ? fmt::format("NUMA node {}", g.numa_node) : "NUMA node ?",
            cpus != t.numa_cpulists.end() ? "CPUs " + cpus->second : "",
            switch_levels + 1,
            numa.child_x,
            0};
    numa.child_x.push_back(x);
  }
  for (auto& [k, n] : nodes) {
    double sum = 0;
    for (double x : n.child_x) sum += x;
    n.x = sum / static_cast<double>(n.child_x.size());
  }
  return nodes;
}

double level_y(int level) { return kGpuTop + kGpuH + 30 + kLevel * level; }

// Each GPU's path down the tree: GPU -> its switches (nearest first) -> root complex -> NUMA node.
std::string tree_edges(const std::vector<const TopoGpu*>& order,
                       const std::map<std::string, TreeNode>& nodes) {
  std::string svg;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const auto& g = *order[i];
    std::vector<std::string> chain;
    auto sw = switches_of(g);
    for (auto it = sw.rbegin(); it != sw.rend(); ++it) chain.push_back("sw:" + *it);
    if (!g.pci_path.empty()) chain.push_back("rc:" + g.pci_path[0]);
    chain.push_back(fmt::format("numa:{}", g.numa_node));
    double x = kMargin + kSlot * (static_cast<double>(i) + 0.5), y = kGpuTop + kGpuH;
    for (const auto& key : chain) {
      const auto& n = nodes.at(key);
      svg += fmt::format("<line class=\"pcie\" x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\"/>\n",
                         x, y, n.x, level_y(n.level));
      x = n.x;
      y = level_y(n.level) + kNodeH;
    }
  }
  return svg;
}

std::string pcie_text(const PcieLinkState& p, bool& degraded) {
  degraded = p.gen > 0 && (p.gen < p.max_gen || p.width < p.max_width);
  if (p.gen <= 0) return "PCIe ?";
  if (degraded) return fmt::format("Gen{} x{} of Gen{} x{}", p.gen, p.width, p.max_gen, p.max_width);
  return fmt::format("PCIe Gen{} x{}", p.gen, p.width);
}

// The topology's name for the GPU, else the one its run recorded (AMD topologies read from sysfs and
// rocm-smi carry none), else its PCI device id.
std::string gpu_name_of(const Result& r, const TopoGpu& g) {
  if (!g.name.empty()) return g.name;
  for (const auto& info : r.gpus)
    if (info.index == g.index && !info.name.empty()) return info.name;
  return gpu_display_name(g);
}

std::string gpu_box(const Result& r, const TopoGpu& g, double cx) {
  bool degraded = false;
  const std::string link = pcie_text(g.pcie, degraded);
  const std::string full = gpu_name_of(r, g);
  // "AMD Instinct MI300X" -> "Instinct MI300X": the vendor is in the hover title; the box is narrow.
  std::string name = full;
  for (const std::string vendor : {"AMD ", "NVIDIA "})
    if (name.rfind(vendor, 0) == 0 && name.size() > vendor.size()) name = name.substr(vendor.size());
  if (name.size() > 19) name = name.substr(0, 18) + "…";
  return fmt::format(
      "<g class=\"node gpu\" data-gpu=\"{}\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" "
      "rx=\"5\"/><text "
      "x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-weight=\"bold\">GPU{}</text><text x=\"{}\" y=\"{}\" "
      "text-anchor=\"middle\">{}</text><text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"{}\">{}</text>"
      "<title>GPU{} {} at {}</title></g>\n",
      g.index, cx - kBoxW / 2, kGpuTop, kBoxW, kGpuH, cx, kGpuTop + 16, g.index, cx, kGpuTop + 32,
      escape_html(name), cx, kGpuTop + 48, degraded ? "#c0392b" : "#333", link, g.index, escape_html(full),
      escape_html(g.bus_id));
}

}  // namespace

std::string topology_svg(const Result& r) {
  if (!r.topology || r.topology->gpus.empty()) return "";
  const auto& t = *r.topology;
  if (t.gpus.size() > kHeatmapMaxGpus)
    return fmt::format(
        "<p class=\"topology-summary\">{} GPUs: more than {}, so the machine is not drawn.</p>\n",
        t.gpus.size(), kHeatmapMaxGpus);
  const auto order = drawing_order(t);
  int switch_levels = 0;
  const auto nodes = pcie_tree(t, order, switch_levels);
  const double width = std::max(2 * kMargin + kSlot * static_cast<double>(order.size()), 640.0);
  const double height = level_y(switch_levels + 1) + kNodeH + 12;
  std::string svg = fmt::format(
      "<svg class=\"chart topology\" data-chart=\"topology\" viewBox=\"0 0 {0} {1}\" width=\"{0}\" "
      "height=\"{1}\" "
      "xmlns=\"http://www.w3.org/2000/svg\" font-family=\"sans-serif\" font-size=\"11\">\n<text "
      "class=\"title\" "
      "x=\"{2}\" y=\"18\" font-size=\"15\" font-weight=\"bold\">The machine</text>\n",
      width, height, kMargin);
  svg += fabric_svg(r, order, width) + tree_edges(order, nodes);
  for (std::size_t i = 0; i < order.size(); ++i)
    svg += gpu_box(r, *order[i], kMargin + kSlot * (static_cast<double>(i) + 0.5));
  for (const auto& [key, n] : nodes) svg += box(n.x, level_y(n.level), kNodeH, n.kind, n.line1, n.line2);
  return svg + "</svg>\n";
}

}  // namespace fb
