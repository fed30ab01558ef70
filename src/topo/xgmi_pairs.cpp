#include "topo/xgmi_pairs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "topo/link_rates.hpp"

namespace fb {
namespace {

template <typename T>
T at(const std::vector<std::vector<T>>& m, int a, int b, T fallback) {
  if (a < 0 || b < 0 || static_cast<std::size_t>(a) >= m.size()) return fallback;
  const auto& row = m[static_cast<std::size_t>(a)];
  return static_cast<std::size_t>(b) < row.size() ? row[static_cast<std::size_t>(b)] : fallback;
}

// Links from the driver's xGMI bandwidth: amdgpu reports min = one link and max = links x one
// link, and max 0 for a peer reached only through another GPU. 0: indirect; -1: not read.
int links_from_bandwidth(double min_mbps, double max_mbps) {
  if (min_mbps < 0 || max_mbps < 0) return -1;
  if (max_mbps == 0) return 0;
  if (min_mbps <= 0) return -1;
  return std::max(1, static_cast<int>(std::lround(max_mbps / min_mbps)));
}

const XgmiProduct* product_of(const TopoGpu& a, const TopoGpu& b) {
  const auto* product = xgmi_product(a.name, a.device_id);
  return product != nullptr ? product : xgmi_product(b.name, b.device_id);
}

void set_indirect(const RocmSmiTopo& smi, int ai, int bi, TopoPair& p) {
  p.links = 0;
  p.limit = fmt::format(
      "indirect xGMI path through another GPU (ROCm SMI max bandwidth 0 MB/s; its hop count {} is not "
      "trusted: rocm-systems #5763)",
      at(smi.hops, ai, bi, -1));
}

// amdkfd weighs an xGMI pair 15 per xGMI hop (KFD_CRAT_XGMI_WEIGHT times the hop count the
// driver reads from the PSP's topology table: Linux drivers/gpu/drm/amd/amdkfd/kfd_crat.c,
// kfd_fill_gpu_xgmi_link_to_gpu; AMD SMI's docs, ROCm/rocm-systems #7372), while the hops that
// rocm-smi prints are 1 for every xGMI pair, direct or not (ROCm/rocm-systems #5763, AMD's MI200
// guide: "one for all GPUs" of an MI250X node). 0: the weight does not say.
constexpr int kXgmiWeightPerHop = 15;

int xgmi_hops_from_weight(int weight) {
  return weight > 0 && weight % kXgmiWeightPerHop == 0 ? weight / kXgmiWeightPerHop : 0;
}

void set_multi_hop(const RocmSmiTopo& smi, int ai, int bi, int hops, TopoPair& p) {
  p.links = 0;
  p.limit = fmt::format(
      "indirect xGMI path of {} hops, no direct link (ROCm SMI weight {} = {} per xGMI hop; its hop count {} "
      "counts every xGMI path as 1: rocm-systems #5763)",
      hops, at(smi.weight, ai, bi, -1), kXgmiWeightPerHop, at(smi.hops, ai, bi, -1));
}

// What the weight says of a pair the bandwidth did not describe, for the limit text.
std::string weight_note(int weight) {
  if (weight < 0) return "";
  if (xgmi_hops_from_weight(weight) == 1) return fmt::format("; ROCm SMI weight {}: one xGMI hop", weight);
  return fmt::format("; ROCm SMI weight {} is not {} per xGMI hop (a partitioned GPU?)", weight,
                     kXgmiWeightPerHop);
}

}  // namespace

std::vector<int> amd_smi_indices(const std::vector<TopoGpu>& gpus, const RocmSmiTopo& smi,
                                 std::vector<std::string>& unmatched) {
  std::vector<int> index(gpus.size(), -1);
  if (smi.from_library()) {
    for (std::size_t i = 0; i < gpus.size(); ++i) {
      const auto it = std::find(smi.bus_ids.begin(), smi.bus_ids.end(), gpus[i].bus_id);
      if (it != smi.bus_ids.end()) index[i] = static_cast<int>(it - smi.bus_ids.begin());
    }
    return index;
  }
  std::vector<std::size_t> amd;
  for (std::size_t i = 0; i < gpus.size(); ++i)
    if (gpus[i].vendor == "amd") amd.push_back(i);
  // The text names no bus ids: its rows are the GPUs in bus order only when it lists them all.
  if (static_cast<int>(amd.size()) != smi.n) {
    const auto count = static_cast<int>(amd.size());
    const bool partitions = count > 0 && smi.n > count && smi.n % count == 0;
    unmatched.push_back(fmt::format(
        "{} lists {} GPU{}, sysfs {} AMD GPU{}{}: its text names no bus ids, so its rows cannot be "
        "matched to GPUs and its link types are not used (pairs judged by PCIe); capture it with every "
        "GPU visible",
        smi.source, smi.n, smi.n == 1 ? "" : "s", count, count == 1 ? "" : "s",
        partitions ? fmt::format(" ({} partitions per GPU?)", smi.n / count) : ""));
    return index;
  }
  std::sort(amd.begin(), amd.end(), [&](auto x, auto y) { return gpus[x].bus_id < gpus[y].bus_id; });
  for (std::size_t k = 0; k < amd.size(); ++k) index[amd[k]] = static_cast<int>(k);
  return index;
}

void attach_amd_devices(const RocmSmiTopo& smi, const std::vector<int>& index, std::vector<TopoGpu>& gpus) {
  if (!smi.from_library()) return;
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    const int k = index[i];
    if (k < 0) continue;
    const auto u = static_cast<std::size_t>(k);
    auto& g = gpus[i];
    if (g.name.empty() && u < smi.names.size()) g.name = smi.names[u];
    if (g.numa_node < 0 && u < smi.numa_node.size()) g.numa_node = smi.numa_node[u];
    if (g.pcie.gen == 0 && u < smi.pcie_gen.size()) g.pcie.gen = smi.pcie_gen[u];
    if (g.pcie.width == 0 && u < smi.pcie_width.size()) g.pcie.width = smi.pcie_width[u];
  }
}

bool classify_xgmi(const TopoGpu& a, const TopoGpu& b, const RocmSmiTopo& smi, int ai, int bi, TopoPair& p) {
  if (at(smi.link_type, ai, bi, std::string()) != "XGMI") return false;
  p.connection = Connection(Connection::Kind::xgmi);
  const int read =
      links_from_bandwidth(at(smi.xgmi_min_mbps, ai, bi, -1.0), at(smi.xgmi_max_mbps, ai, bi, -1.0));
  if (read == 0) {
    set_indirect(smi, ai, bi, p);
    return true;
  }
  const int weight = at(smi.weight, ai, bi, -1);
  if (const int hops = xgmi_hops_from_weight(weight); read < 0 && hops > 1) {
    set_multi_hop(smi, ai, bi, hops, p);
    return true;
  }
  const auto* product = product_of(a, b);
  p.links = read > 0 ? read : (product != nullptr ? product->links_per_pair : 1);
  const std::string how =
      read > 0
          ? fmt::format("{} read from ROCm SMI's xGMI bandwidth {:g}-{:g} MB/s",
                        p.links == 1 ? "link" : "links", at(smi.xgmi_min_mbps, ai, bi, -1.0),
                        at(smi.xgmi_max_mbps, ai, bi, -1.0))
          : "link count inferred from the platform: ROCm SMI gave no xGMI bandwidth" + weight_note(weight);
  if (product == nullptr) {
    p.limit = fmt::format("{} xGMI link(s) of an unknown product ({})", p.links, how);
    return true;
  }
  p.link_gbps = product->gbps_per_link;
  p.wire_gbps = p.links * product->gbps_per_link;
  p.sm_ceiling_gbps = p.links * product->rccl_gbps_per_link;
  p.ce_ceiling_gbps = p.sm_ceiling_gbps;
  p.limit = fmt::format("{} xGMI link{} x {:g} GB/s ({}; {})", p.links, p.links == 1 ? "" : "s",
                        product->gbps_per_link, product->name_contains, how);
  return true;
}

bool attach_smi_p2p(const RocmSmiTopo& smi, int ai, int bi, TopoPair& p) {
  const int ab = at(smi.p2p, ai, bi, -1);
  const int ba = at(smi.p2p, bi, ai, -1);
  if (ab < 0 || ba < 0) return false;
  p.p2p = ab == 1 && ba == 1;
  p.p2p_detail =
      fmt::format("ROCm SMI: P2P accessible {}/{}", ab == 1 ? "yes" : "no", ba == 1 ? "yes" : "no");
  return true;
}

}  // namespace fb
