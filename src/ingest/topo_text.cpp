#include "ingest/topo_text.hpp"

#include <fmt/format.h>

#include "analyse/scope/gpu_model.hpp"
#include "core/error.hpp"
#include "core/parse_number.hpp"
#include "topo/link_rates.hpp"
#include "topo/smi_text.hpp"

namespace fb {
namespace {

std::string gpu_name_at(const Result& r, int index) {
  for (const auto& g : r.gpus)
    if (g.index == index && !g.name.empty()) return g.name;
  return r.gpus.empty() ? "" : r.gpus.front().name;
}

// The NVLink generation whose products list names the GPU's model ("H200" in "H100, H200").
const NvlinkGeneration* generation_of(const std::string& gpu_name) {
  const auto key = gpu_model_key(gpu_name);
  if (key.empty()) return nullptr;
  for (int v = 1; v <= 9; ++v)
    if (const auto* g = nvlink_generation(v)) {
      const std::string products = ", " + std::string(g->products) + ",";
      if (products.find(", " + key + ",") != std::string::npos) return g;
    }
  return nullptr;
}

void nvlink_pair(TopoPair& p, int links, const std::string& gpu_name) {
  p.connection = Connection::nvlink(links);
  p.links = links;
  const auto* gen = generation_of(gpu_name);
  if (gen == nullptr) {
    p.limit = fmt::format("{} NVLinks of unknown generation (GPU model {})", links,
                          gpu_name.empty() ? "unknown: pass --gpu" : "'" + gpu_name + "'");
    return;
  }
  p.link_gbps = gen->data_gbps;
  p.wire_gbps = links * gen->data_gbps;
  p.sm_ceiling_gbps = p.wire_gbps * gen->sm_fraction;
  p.ce_ceiling_gbps = p.wire_gbps * gen->ce_fraction;
  p.limit = fmt::format("{} NVLink{} links x {:g} GB/s (nvidia-smi topo -m; generation from the GPU model)",
                        links, gen->version, gen->data_gbps);
}

Topology from_nvidia(const NvidiaSmiTopo& t, const Result& r) {
  Topology topo;
  topo.sources.emplace_back("nvidia-smi topo -m (text)");
  const int n = static_cast<int>(t.gpus.size());
  for (int i = 0; i < n; ++i) {
    TopoGpu g;
    g.index = i;
    g.name = gpu_name_at(r, i);
    g.vendor = "nvidia";
    const auto k = static_cast<std::size_t>(i);
    if (k < t.cpu_affinity.size()) g.cpulist = t.cpu_affinity[k];
    if (k < t.numa_affinity.size())
      g.numa_node = static_cast<int>(try_parse_whole(t.numa_affinity[k]).value_or(-1));
    topo.gpus.push_back(g);
  }
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b) {
      TopoPair p;
      p.a = a;
      p.b = b;
      const auto& cell = t.matrix[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)];
      const auto c = Connection::parse(cell).value_or(Connection());
      if (c.kind() == Connection::Kind::nvlink) {
        nvlink_pair(p, c.nvlinks(), topo.gpus[static_cast<std::size_t>(a)].name);
      } else {
        p.connection = c;
        p.pcie_class = c.kind() == Connection::Kind::unknown ? "" : cell;
        p.limit = fmt::format("{} (nvidia-smi topo -m; PCIe link state not in the text)", cell);
      }
      topo.pairs.push_back(p);
    }
  topo.missing.emplace_back(
      "PCIe link state, NVLink states and peer access: not in nvidia-smi topo -m's text");
  return topo;
}

void xgmi_pair(TopoPair& p, int hops, const std::string& gpu_name) {
  p.connection = Connection(Connection::Kind::xgmi);
  const auto* x = xgmi_product(gpu_name, "");
  if (x == nullptr || hops > 1) {
    p.limit = hops > 1 ? fmt::format("xGMI over {} hops (rocm-smi)", hops)
                       : "xGMI of unknown rate (GPU model unknown: pass --gpu)";
    return;
  }
  p.links = x->links_per_pair;
  p.link_gbps = x->gbps_per_link;
  p.wire_gbps = p.links * p.link_gbps;
  p.sm_ceiling_gbps = p.wire_gbps * x->reach_fraction();
  p.limit = fmt::format("{} xGMI link{} x {:g} GB/s (rocm-smi; rate from the GPU model)", p.links,
                        p.links == 1 ? "" : "s", p.link_gbps);
}

Topology from_rocm(const RocmSmiTopo& t, const Result& r) {
  Topology topo;
  topo.sources.emplace_back("rocm-smi --showtopo (text)");
  topo.missing = t.unread;
  for (int i = 0; i < t.n; ++i) {
    TopoGpu g;
    g.index = i;
    g.name = gpu_name_at(r, i);
    g.vendor = "amd";
    if (static_cast<std::size_t>(i) < t.numa_node.size())
      g.numa_node = t.numa_node[static_cast<std::size_t>(i)];
    topo.gpus.push_back(g);
  }
  for (int a = 0; a < t.n; ++a)
    for (int b = a + 1; b < t.n; ++b) {
      TopoPair p;
      p.a = a;
      p.b = b;
      const auto ia = static_cast<std::size_t>(a), ib = static_cast<std::size_t>(b);
      const std::string type =
          ia < t.link_type.size() && ib < t.link_type[ia].size() ? t.link_type[ia][ib] : "";
      const int hops = ia < t.hops.size() && ib < t.hops[ia].size() ? t.hops[ia][ib] : -1;
      if (type == "XGMI")
        xgmi_pair(p, hops, topo.gpus[ia].name);
      else
        p.limit =
            type.empty() ? "link type not in rocm-smi's text" : type + " (rocm-smi names no PCIe path class)";
      topo.pairs.push_back(p);
    }
  return topo;
}

}  // namespace

Topology topology_from_text(const std::string& text, const std::string& path, const Result& r) {
  try {
    if (text.find("ROCm System Management") != std::string::npos ||
        text.find("between two GPUs") != std::string::npos)
      return from_rocm(parse_rocm_smi_topo(text), r);
    if (text.find("GPU0") != std::string::npos) return from_nvidia(parse_nvidia_smi_topo(text), r);
  } catch (const Error& e) {
    FB_USAGE_ERROR(fmt::format("--topo {}: {}", path, e.what()));
  }
  FB_USAGE_ERROR(fmt::format("--topo {}: neither nvidia-smi topo -m's nor rocm-smi --showtopo's text", path));
}

}  // namespace fb
