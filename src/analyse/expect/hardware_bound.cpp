#include "analyse/expect/hardware_bound.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "analyse/expect/gpu_hardware.hpp"
#include "analyse/expect/nvlink_domain.hpp"
#include "analyse/expect/reach.hpp"
#include "analyse/scope/gpu_names.hpp"
#include "core/units.hpp"
#include "topo/link_rates.hpp"

namespace fb {
namespace {

bool in(const std::vector<int>& gpus, int g) { return std::find(gpus.begin(), gpus.end(), g) != gpus.end(); }

// What staging through host memory carries: the slowest run GPU's PCIe link at its maximum.
PathCeiling staged_of(const Topology& t, const std::vector<int>& gpus) {
  PathCeiling slowest;
  for (const auto& g : t.gpus) {
    if (!in(gpus, g.index)) continue;
    const auto c =
        pcie_sm_ceiling(std::max(g.pcie.max_gen, g.pcie.gen), std::max(g.pcie.max_width, g.pcie.width));
    if (!c.known()) return {};
    if (!slowest.known() || c.gbps < slowest.gbps) slowest = c;
  }
  return slowest;
}

double nvls_ceiling(double wire_per_gpu, std::size_t n) {
  return wire_per_gpu * 2 * static_cast<double>(n - 1) / static_cast<double>(n);
}

// The run's pairs in the topology: the weakest wire, and whether every pair has peer access.
struct RunPairs {
  bool any = false;
  bool all_peer = true;
  double weakest_wire = 0;
};

RunPairs run_pairs(const Topology& t, const std::vector<int>& gpus) {
  RunPairs out;
  for (const auto& p : t.pairs) {
    if (!in(gpus, p.a) || !in(gpus, p.b)) continue;
    out.any = true;
    out.weakest_wire = out.weakest_wire == 0 ? p.wire_gbps : std::min(out.weakest_wire, p.wire_gbps);
    out.all_peer = out.all_peer && !(p.p2p && !*p.p2p);
  }
  return out;
}

// NVLink 1-3: the share is not measured; NVLink4's applied to the wire, and the wire bounds it above.
void derive_share(RunFabric& f, double wire) {
  const auto* g4 = nvlink_generation(4);
  f.ring = {wire * g4->sm_fraction,
            fmt::format("NVLink4's measured share ({:.2f}) of the pairs' {:.1f} GB/s wire: "
                        "not measured on this generation (docs/model.md)",
                        g4->sm_fraction, wire)};
  f.above = wire;
  f.share_measured = false;
}

std::optional<RunFabric> from_topology(const Result& r, const Run& run) {
  const auto& t = *r.topology;
  const auto pairs = run_pairs(t, run.gpus);
  if (!pairs.any) return std::nullopt;
  RunFabric f;
  f.staged = staged_of(t, run.gpus);
  const bool fabric = ring_on_fabric(t, run.gpus);
  f.path = fabric ? FabricPath::gpu_fabric : pairs.all_peer ? FabricPath::pcie_peer : FabricPath::host_staged;
  f.ring = ring_ceiling(t, run.gpus);
  f.above = f.ring.gbps;
  if (!f.ring.known() && fabric && pairs.weakest_wire > 0) derive_share(f, pairs.weakest_wire);
  if (!f.ring.known()) return std::nullopt;
  const auto* hw = gpu_hardware_of(gpu_name(r, run.gpus));
  f.p2p_none_by_design = hw != nullptr && hw->p2p == PeerAccess::none_by_design;
  if (fabric && hw != nullptr && hw->nvls && run.gpus.size() > 2)
    f.nvls = nvls_ceiling(pairs.weakest_wire, run.gpus.size());
  f.what = fmt::format("the topology: {}", fabric           ? "a GPU fabric between every pair"
                                           : pairs.all_peer ? "PCIe with peer access"
                                                            : "PCIe, some pairs without peer access");
  return f;
}

std::optional<RunFabric> nvswitch_fabric(const GpuHardware& hw, std::size_t n, bool domain) {
  const auto* gen = nvlink_generation(hw.nvlink_version);
  const auto* g4 = nvlink_generation(4);
  if (gen == nullptr) return std::nullopt;
  RunFabric f;
  f.path = FabricPath::gpu_fabric;
  f.from_table = true;
  const double wire = hw.links * gen->data_gbps;
  if (gen->sm_fraction > 0) {
    f.ring = {wire * gen->sm_fraction,
              gen->sm_share_is_nccls_model()
                  ? fmt::format("NCCL's model of an NVLink{} link, {:g} of {:g} GB/s (not measured)",
                                gen->version, gen->nccl_model_gbps, gen->data_gbps)
                  : fmt::format("{:.2f} of the NVLink{} wire, measured on 2 x H200", gen->sm_fraction,
                                gen->version)};
    f.above = f.ring.gbps;
  } else {
    f.ring = {wire * g4->sm_fraction,
              fmt::format("NVLink4's measured share {:.2f} applied to NVLink{}, not measured there",
                          g4->sm_fraction, gen->version)};
    f.above = wire;
    f.share_measured = false;
  }
  if (hw.nvls && n > 2) f.nvls = nvls_ceiling(wire, n);
  f.what = fmt::format(
      "{} x NVLink{} ({:.0f} GB/s each way) through NVSwitch{} (the GPU table's {} row, "
      "docs/model.md)",
      hw.links, gen->version, wire, domain ? ", one NVLink domain across trays" : "", hw.model);
  if (hw.pcie_gen > 0) f.staged = pcie_sm_ceiling(hw.pcie_gen, hw.pcie_width);
  return f;
}

std::optional<RunFabric> xgmi_fabric(const GpuHardware& hw, const std::string& name, std::size_t n) {
  const auto* x = xgmi_product(name, "");
  if (x == nullptr) return std::nullopt;
  RunFabric f;
  f.path = FabricPath::gpu_fabric;
  f.from_table = true;
  const double peers = static_cast<double>(n - 1);
  f.ring = {
      peers * x->rccl_gbps_per_link,
      fmt::format("{:g} of {:g} GB/s per xGMI link (RCCL's model, docs/model.md), summed over each GPU's "
                  "{} links to the others in the mesh",
                  x->rccl_gbps_per_link, x->gbps_per_link, n - 1)};
  f.above = f.ring.gbps;
  f.what = fmt::format("{} xGMI links per GPU, one to each peer (the GPU table's {} row, docs/model.md)",
                       hw.links, hw.model);
  f.staged = pcie_sm_ceiling(hw.pcie_gen, hw.pcie_width);
  return f;
}

// No fabric the document or the table knows between these GPUs: the slowest path without a fault,
// through host memory over each GPU's PCIe link.
std::optional<RunFabric> pcie_fabric(const GpuHardware& hw) {
  const auto c = pcie_sm_ceiling(hw.pcie_gen, hw.pcie_width);
  if (!c.known()) return std::nullopt;
  RunFabric f;
  f.path = FabricPath::host_staged;
  f.from_table = true;
  f.ring = c;
  f.above = hw.fabric == GpuFabric::none ? c.gbps : 0;  // a bridge or the platform's links may carry more
  f.staged = c;
  f.p2p_none_by_design = hw.p2p == PeerAccess::none_by_design;
  f.what = hw.p2p == PeerAccess::none_by_design
               ? fmt::format(
                     "PCIe Gen{} x{} without peer access, through host memory by design (the GPU table's "
                     "{} row, docs/model.md)",
                     hw.pcie_gen, hw.pcie_width, hw.model)
               : fmt::format(
                     "PCIe Gen{} x{}; the layout is not in the document (--topo FILE gives it), so the "
                     "slowest path without a fault, through host memory (the GPU table's {} row)",
                     hw.pcie_gen, hw.pcie_width, hw.model);
  return f;
}

std::optional<RunFabric> from_table(const Result& r, const Run& run, bool domain) {
  const auto name = gpu_name(r, run.gpus);
  const auto* hw = gpu_hardware_of(name);
  if (hw == nullptr) return std::nullopt;
  const auto n = run.gpus.size();
  const bool one_board = domain || inferred_hosts(r, run) < 2;
  if (one_board && static_cast<int>(n) <= hw->fabric_gpus) {
    if (hw->fabric == GpuFabric::nvswitch && (domain || static_cast<int>(n) <= hw->gpus_per_host))
      return nvswitch_fabric(*hw, n, domain);
    if (hw->fabric == GpuFabric::xgmi_mesh && !domain) return xgmi_fabric(*hw, name, n);
  }
  if (!one_board) return std::nullopt;
  return pcie_fabric(*hw);
}

// The share a healthy run reaches of the ring's ceiling at `p` on `f`, and its words; 0: not judged.
double healthy_share(const RunFabric& f, const Run& run, const Point& p, std::string& words) {
  const auto eq = equivalent_bytes(run.collective, p.bytes, run.gpus.size());
  const auto at = format_bytes(eq);
  if (f.path == FabricPath::gpu_fabric) {
    const double s = fabric_reach(run.collective, eq);
    words = fmt::format(
        "a healthy ring reaches {:.0f}% of its SM ceiling at {} on 2 GPUs (the 2 x H200 rows of "
        "sku_table.cpp over their {:.1f} GB/s ceiling)",
        s * 100, at, reach_reference_ceiling());
    return s;
  }
  const double size = size_share(run.collective, eq);
  const double base = f.path == FabricPath::pcie_peer ? kPcieReach : kStagedReach;
  words = fmt::format(
      "a healthy run reaches {:.0f}% of its ceiling ({}; at {} on 2 GPUs a ring reaches {:.0f}% of "
      "its 1 GiB figure, the 2 x H200 rows)",
      base * size * 100,
      f.path == FabricPath::pcie_peer ? "a wide margin over PCIe: not measured yet"
                                      : "through host memory: 0.53 measured, halved",
      at, size * 100);
  return base * size;
}

}  // namespace

std::optional<RunFabric> run_fabric(const Result& r, const Run& run) {
  if (run.gpus.size() < 2) return std::nullopt;
  const bool domain = nvlink_domain(r, run).one;
  if (!domain && inferred_hosts(r, run) > 1) return std::nullopt;  // the NICs (cross_host_expectation)
  if (r.topology && !domain)
    if (auto f = from_topology(r, run)) return f;
  return from_table(r, run, domain);
}

double physical_ceiling(const Result& r, const Run& run, const WhatRan& w, std::string* words) {
  const auto f = run_fabric(r, run);
  if (!f) return 0;
  const auto algo = canonical_algo(w.algo);
  const bool nvls = f->nvls > 0 && (algo.empty() || algo == "NVLS" || algo == "NVLSTREE");
  if (!nvls && !f->share_measured && f->path == FabricPath::gpu_fabric && words != nullptr)
    *words = fmt::format("the ring's wire {:.1f} GB/s ({})", f->above, f->what);
  else if (nvls && words != nullptr)
    *words = fmt::format("NVLS's ceiling {:.1f} GB/s (each GPU's wire x 2(n-1)/n: the switch reduces, {})",
                         f->nvls, f->what);
  else if (words != nullptr)
    *words = fmt::format("the ring's path ceiling {:.1f} GB/s ({}; {})", f->above, f->ring.source, f->what);
  return nvls ? std::max(f->nvls, f->above) : f->above;
}

std::optional<HardwareBound> hardware_bound(const Result& r, const Run& run, const Point& p,
                                            const WhatRan& w) {
  if (!judged_run(run)) return std::nullopt;
  auto f = run_fabric(r, run);
  if (!f) return std::nullopt;
  std::string share_words;
  const double share = healthy_share(*f, run, p, share_words);
  if (share <= 0) return std::nullopt;
  HardwareBound b;
  b.ceiling = f->ring.gbps;
  b.reach = share * b.ceiling;
  const bool mid_size = equivalent_bytes(run.collective, p.bytes, run.gpus.size()) < (1ULL << 30);
  const double at_large = !f->share_measured                  ? kDerivedShareTolerance
                          : f->path == FabricPath::gpu_fabric ? kReachTolerance
                                                              : 0.0;
  b.tolerance = (mid_size ? kMidSizeTolerance : at_large) + interval(p);
  b.above = physical_ceiling(r, run, w);
  b.source = fmt::format("derived from the hardware: {}; the ring's ceiling {:.1f} GB/s: {}, {}", share_words,
                         b.ceiling, f->what, f->ring.source);
  b.fabric = std::move(*f);
  return b;
}

}  // namespace fb
