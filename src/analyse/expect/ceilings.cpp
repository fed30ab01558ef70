#include "analyse/expect/ceilings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "analyse/scope/gpu_names.hpp"
#include "topo/link_rates.hpp"

namespace fb {
namespace {

// Shares of the wire where the topology has no measured ceiling (docs/model.md, "Path ceilings").
// PCIe: 2 x H200, PCIe Gen5 x16 (63.0 GB/s), nvbandwidth 0.8, 2026-11-29 (shared/REFERENCE.md):
// host_to_device_memcpy_ce 55.5 GB/s (0.88), host_to_device_memcpy_sm 51.4 GB/s (0.82).
constexpr double kPcieCe = 0.88;
constexpr double kPcieSm = 0.82;
// SM copy kernels over a GPU's host link: nvbandwidth's host_to_device_memcpy_sm 51.4 and
// device_to_host_memcpy_sm 52.6 GB/s of 63.0 on Gen5 x16 (one H200, 2026-12-01): the faster way.
constexpr double kHostSm = 0.84;
// xGMI: AMD ROCm blog "mi300x-rccl-xgmi" (2025-03-02): 45-48 of 64 GB/s per link reached;
// RCCL models a link at 48 (ROCm/rccl #1210); 8 x MI300X all_reduce reaches 318 of 7 x 48 = 336.
constexpr double kXgmi = 48.0 / 64.0;

PathCeiling pcie_pair(const TopoPair& p, double share, const char* what) {
  if (p.wire_gbps <= 0) return {};
  return {
      p.wire_gbps * share,
      fmt::format("{:.0f}% of the PCIe wire ({}, measured on PCIe Gen5 x16, 2 x H200)", share * 100, what)};
}

// What a ceiling carried by the topology rests on: measured NVLink shares, NCCL's NVLink5 model,
// or RCCL's xGMI model.
std::string preset_source(const TopoPair& p) {
  if (p.connection.kind() == Connection::Kind::xgmi)
    return p.link_gbps == 76.8
               ? "MI300X's share (0.75) of each 76.8 GB/s MI350X/MI355X xGMI link (not measured; "
                 "docs/model.md, \"The xGMI model\")"
               : "RCCL's model of each xGMI link (docs/model.md, \"The xGMI model\")";
  const auto* gen = p.link_gbps == 50.0 ? nvlink_generation(5) : nullptr;
  if (gen != nullptr && gen->sm_share_is_nccls_model())
    return fmt::format("NCCL's model of an NVLink5 link, {:g} of {:g} GB/s (not measured; docs/model.md)",
                       gen->nccl_model_gbps, gen->data_gbps);
  return "measured share of the NVLink wire (docs/model.md)";
}

}  // namespace

PathCeiling pair_sm_ceiling(const TopoPair& p) {
  if (p.sm_ceiling_gbps > 0) return {p.sm_ceiling_gbps, preset_source(p)};
  switch (p.connection.kind()) {
    case Connection::Kind::nvlink:
      return {};  // a generation whose share is not measured: no honest ceiling
    case Connection::Kind::xgmi:
      if (p.wire_gbps <= 0) return {};
      return {p.wire_gbps * kXgmi,
              "48 of 64 GB/s per xGMI link (RCCL's model, ROCm/rccl #1210; 45-48 reached per AMD)"};
    default:
      return pcie_pair(p, kPcieSm, "SM-issued host copies");
  }
}

PathCeiling pair_ce_ceiling(const TopoPair& p) {
  if (p.ce_ceiling_gbps > 0) return {p.ce_ceiling_gbps, preset_source(p)};
  switch (p.connection.kind()) {
    case Connection::Kind::nvlink:
      return {};
    case Connection::Kind::xgmi:
      if (p.wire_gbps <= 0) return {};
      return {p.wire_gbps * kXgmi,
              "48 of 64 GB/s per xGMI link (RCCL's model, ROCm/rccl #1210; 45-48 reached per AMD)"};
    default:
      return pcie_pair(p, kPcieCe, "copy-engine host copies");
  }
}

PathCeiling pcie_sm_ceiling(int gen, int width) {
  const double wire = pcie_gbps(gen, width);
  if (wire <= 0) return {};
  return {wire * kPcieSm,
          fmt::format("{:.0f}% of PCIe Gen{} x{} ({:.1f} GB/s; SM-issued host copies reach 51.4 "
                      "of 63.0 GB/s on Gen5 x16, nvbandwidth on 2 x H200)",
                      kPcieSm * 100, gen, width, wire)};
}

PathCeiling host_ce_ceiling(const TopoGpu& g, bool at_max, bool sm) {
  const int gen = at_max ? std::max(g.pcie.max_gen, g.pcie.gen) : g.pcie.gen;
  const int width = at_max ? std::max(g.pcie.max_width, g.pcie.width) : g.pcie.width;
  const double wire = pcie_gbps(gen, width);
  if (wire <= 0) return {};
  if (sm)
    return {wire * kHostSm,
            fmt::format("{:.0f}% of PCIe Gen{} x{} ({:.1f} GB/s; SM copy kernels reach 51.4 and 52.6 "
                        "of 63.0 GB/s on Gen5 x16, nvbandwidth on one H200)",
                        kHostSm * 100, gen, width, wire)};
  return {wire * kPcieCe, fmt::format("{:.0f}% of PCIe Gen{} x{} ({:.1f} GB/s; copy engines reach 55.5 of "
                                      "63.0 GB/s on Gen5 x16, measured on 2 x H200)",
                                      kPcieCe * 100, gen, width, wire)};
}

// A fully connected xGMI mesh (one link per pair) runs rings over every link at once: a GPU's
// ceiling is the sum of its links to the others (8 x MI300X: 7 links); elsewhere the ring is as
// fast as its weakest pair.
PathCeiling ring_ceiling(const Topology& t, const std::vector<int>& gpus) {
  auto in_ring = [&](int g) { return std::find(gpus.begin(), gpus.end(), g) != gpus.end(); };
  PathCeiling weakest;
  bool mesh = true;
  std::map<int, double> per_gpu;
  for (const auto& p : t.pairs) {
    if (!in_ring(p.a) || !in_ring(p.b)) continue;
    const auto c = pair_sm_ceiling(p);
    if (!c.known()) return {};  // some pair unknown: no honest ceiling
    mesh = mesh && p.connection.kind() == Connection::Kind::xgmi;
    per_gpu[p.a] += c.gbps;
    per_gpu[p.b] += c.gbps;
    if (!weakest.known() || c.gbps < weakest.gbps) weakest = c;
  }
  if (!mesh || per_gpu.empty()) return weakest;
  double least = per_gpu.begin()->second;
  for (const auto& [gpu, sum] : per_gpu) least = std::min(least, sum);
  return {least, weakest.source + ", summed over each GPU's links in the mesh"};
}

bool ring_on_fabric(const Topology& t, const std::vector<int>& gpus) {
  bool any = false;
  for (const auto& p : t.pairs) {
    const bool in_ring = std::find(gpus.begin(), gpus.end(), p.a) != gpus.end() &&
                         std::find(gpus.begin(), gpus.end(), p.b) != gpus.end();
    if (!in_ring) continue;
    if (!p.connection.is_gpu_fabric()) return false;
    any = true;
  }
  return any;
}

PathCeiling run_ring_ceiling(const Result& r, const Run& run) {
  if (!r.topology || spans_hosts(r)) return {};
  return ring_ceiling(*r.topology, run.gpus);
}

bool run_on_fabric(const Result& r, const Run& run) {
  return r.topology && !spans_hosts(r) && ring_on_fabric(*r.topology, run.gpus);
}

}  // namespace fb
