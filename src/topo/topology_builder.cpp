#include "topo/topology_builder.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <map>

#include "topo/link_rates.hpp"
#include "topo/pcie_class.hpp"
#include "topo/xgmi_pairs.hpp"

namespace fb {
namespace {

// The GPUs in runtime-ordinal order when the runtime is there, else in bus order.
std::vector<TopoGpu> gather_gpus(const TopologyInputs& in, std::vector<std::string>& missing) {
  const auto& sys = in.sysfs.gpus;
  if (!in.runtime) return sys;
  std::vector<TopoGpu> out;
  for (std::size_t i = 0; i < in.runtime->bus_ids.size(); ++i) {
    const auto bus = normalize_bus_id(in.runtime->bus_ids[i]);
    auto it = std::find_if(sys.begin(), sys.end(), [&](const TopoGpu& g) { return g.bus_id == bus; });
    TopoGpu g = it != sys.end() ? *it : TopoGpu{};
    if (it == sys.end()) {
      g.bus_id = bus;
      missing.push_back(fmt::format("sysfs: no entry for GPU {} ({})", i, bus));
    }
    g.index = static_cast<int>(i);
    g.name = in.runtime->names.at(i);
    out.push_back(std::move(g));
  }
  if (sys.size() > out.size())
    missing.push_back(fmt::format("{} GPU(s) in sysfs are not visible to the runtime (CUDA_VISIBLE_DEVICES?)",
                                  sys.size() - out.size()));
  return out;
}

// NVML reports nvmlNvlinkVersion_t, not the generation: 1 = 1.0, 2 = 2.0, 3 = 2.2, 4 = 3.0,
// 5 = 3.1, 6 = 4.0, 7 = 5.0.
int nvlink_generation_from_nvml(int v) {
  constexpr int kGeneration[] = {0, 1, 2, 2, 3, 3, 4, 5};
  return v >= 0 && v < static_cast<int>(std::size(kGeneration)) ? kGeneration[v] : 0;
}

void attach_nvml(const NvmlReadout& nvml, std::vector<TopoGpu>& gpus) {
  for (auto& g : gpus) {
    const auto it = nvml.gpus.find(g.bus_id);
    if (it == nvml.gpus.end()) continue;
    g.links = it->second.links;
    for (auto& l : g.links) l.version = nvlink_generation_from_nvml(l.version);
    if (g.name.empty()) g.name = it->second.name;
  }
}

int active_links(const TopoGpu& g, const std::string& remote_type) {
  return static_cast<int>(std::count_if(g.links.begin(), g.links.end(), [&](const FabricLink& l) {
    return l.active && l.remote_type == remote_type;
  }));
}

int link_version(const TopoGpu& g) {
  for (const auto& l : g.links)
    if (l.active && l.version > 0) return l.version;
  return 0;
}

// NVLinks between a and b: direct links to each other, plus the switch fabric both reach
// (through NVSwitch a pair gets the smaller side's links).
void classify_nvlink(const TopoGpu& a, const TopoGpu& b, TopoPair& p) {
  const int direct = static_cast<int>(std::count_if(
      a.links.begin(), a.links.end(), [&](const FabricLink& l) { return l.active && l.remote == b.bus_id; }));
  const int via_switch = std::min(active_links(a, "switch"), active_links(b, "switch"));
  p.links = direct + via_switch;
  if (p.links == 0) return;
  const auto* gen = nvlink_generation(std::min(link_version(a), link_version(b)));
  p.connection = Connection::nvlink(p.links);
  if (gen == nullptr) {
    p.limit = fmt::format("{} NVLinks of unknown generation", p.links);
    return;
  }
  p.link_gbps = gen->data_gbps;
  p.wire_gbps = p.links * gen->data_gbps;
  p.limit = fmt::format("{} NVLink{} links{} x {:g} GB/s", p.links, gen->version,
                        via_switch > 0 ? " through NVSwitch" : "", gen->data_gbps);
  p.sm_ceiling_gbps = p.wire_gbps * gen->sm_fraction;
  p.ce_ceiling_gbps = p.wire_gbps * gen->ce_fraction;
}

void classify_pcie(const TopoGpu& a, const TopoGpu& b, TopoPair& p) {
  p.connection = Connection::parse(p.pcie_class).value_or(Connection());
  const double ga = pcie_gbps(a.pcie.gen, a.pcie.width);
  const double gb = pcie_gbps(b.pcie.gen, b.pcie.width);
  if (ga <= 0 || gb <= 0) {
    p.limit = "PCIe link state unknown";
    return;
  }
  const auto& slow = ga <= gb ? a : b;
  p.wire_gbps = std::min(ga, gb);
  p.limit = fmt::format("PCIe Gen{} x{} at GPU{} ({:.1f} GB/s)", slow.pcie.gen, slow.pcie.width, slow.index,
                        p.wire_gbps);
}

void attach_p2p(const TopologyInputs& in, const TopoGpu& a, const TopoGpu& b, TopoPair& p) {
  if (in.runtime) {
    const auto ia = static_cast<std::size_t>(a.index);
    const auto ib = static_cast<std::size_t>(b.index);
    const bool ab = in.runtime->access.at(ia).at(ib) == 1;
    const bool ba = in.runtime->access.at(ib).at(ia) == 1;
    p.p2p = ab && ba;
    p.p2p_detail = fmt::format("{} runtime: access {}/{}, performance rank {}", in.runtime->runtime,
                               ab ? "yes" : "no", ba ? "yes" : "no", in.runtime->rank.at(ia).at(ib));
    return;
  }
  if (in.nvml) {
    const auto it = in.nvml->p2p.find({a.bus_id, b.bus_id});
    if (it != in.nvml->p2p.end()) {
      p.p2p = it->second == "OK";
      p.p2p_detail = "NVML: " + it->second;
    }
  }
}

}  // namespace

Topology build_topology(const TopologyInputs& in) {
  Topology t;
  t.sources = in.sources;
  t.missing = in.missing;
  t.numa_cpulists = in.sysfs.numa_cpulists;
  t.gpus = gather_gpus(in, t.missing);
  if (in.nvml) attach_nvml(*in.nvml, t.gpus);

  const std::vector<int> amd_index =
      in.amd ? amd_smi_indices(t.gpus, *in.amd, t.missing) : std::vector<int>(t.gpus.size(), -1);
  if (in.amd) t.missing.insert(t.missing.end(), in.amd->unread.begin(), in.amd->unread.end());
  if (in.amd) attach_amd_devices(*in.amd, amd_index, t.gpus);

  for (std::size_t i = 0; i < t.gpus.size(); ++i) {
    for (std::size_t j = i + 1; j < t.gpus.size(); ++j) {
      const auto& a = t.gpus[i];
      const auto& b = t.gpus[j];
      TopoPair p;
      p.a = a.index;
      p.b = b.index;
      p.pcie_class = pcie_class(a, b);
      classify_nvlink(a, b, p);
      const int ai = amd_index[i];
      const int bi = amd_index[j];
      const bool xgmi = p.links == 0 && in.amd && classify_xgmi(a, b, *in.amd, ai, bi, p);
      if (p.links == 0 && !xgmi) classify_pcie(a, b, p);
      attach_p2p(in, a, b, p);
      if (!p.p2p && in.amd) attach_smi_p2p(*in.amd, ai, bi, p);
      t.pairs.push_back(std::move(p));
    }
  }
  return t;
}

}  // namespace fb
