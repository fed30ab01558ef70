#include "analyse/run/fallback_signatures.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "analyse/expect/cross_host_expectation.hpp"
#include "analyse/expect/hardware_bound.hpp"
#include "analyse/expect/net_used.hpp"
#include "analyse/expect/nvlink_domain.hpp"
#include "analyse/expect/rdma_range.hpp"
#include "analyse/expect/reach.hpp"
#include "analyse/expect/what_ran.hpp"
#include "analyse/scope/gpu_names.hpp"
#include "core/units.hpp"

namespace fb {
namespace {

// A setting of the run that turns a transport off: "NAME=V", and where it was read.
struct Setting {
  std::string said;   // "NCCL_P2P_DISABLE=1": what the hint says to unset
  std::string where;  // "line 1: NCCL_P2P_DISABLE=1 (the command line)": the evidence's words
};

std::optional<Setting> disabling_setting(const Result& r, const Run& run, const std::string& name,
                                         bool (*off)(const std::string&)) {
  std::string value;
  if (const auto it = run.forced.find(name); it != run.forced.end())
    value = it->second;
  else if (const auto e = r.env.find(name); e != r.env.end())
    value = e->second;
  if (value.empty() || !off(value)) return std::nullopt;
  const auto said = fmt::format("{}={}", name, value);
  if (r.source)
    for (const auto& where : r.source->env_sources)
      if (where.find(said) != std::string::npos) return Setting{said, where};
  return Setting{said, said + " in the run's environment"};
}

bool not_zero(const std::string& v) { return v != "0"; }
bool p2p_level_off(const std::string& v) { return v == "LOC" || v == "0"; }
bool ib_off(const std::string& v) { return v == "1"; }
bool socket_net(const std::string& v) { return v == "Socket" || v == "socket"; }

std::vector<Setting> settings_of(std::initializer_list<std::optional<Setting>> found) {
  std::vector<Setting> out;
  for (const auto& s : found)
    if (s) out.push_back(*s);
  return out;
}

std::vector<Setting> p2p_settings(const Result& r, const Run& run) {
  return settings_of({disabling_setting(r, run, "NCCL_P2P_DISABLE", not_zero),
                      disabling_setting(r, run, "NCCL_P2P_LEVEL", p2p_level_off)});
}

std::vector<Setting> socket_settings(const Result& r, const Run& run) {
  return settings_of({disabling_setting(r, run, "NCCL_IB_DISABLE", ib_off),
                      disabling_setting(r, run, "NCCL_NET", socket_net)});
}

std::string wheres(const std::vector<Setting>& settings) {
  std::vector<std::string> out;
  out.reserve(settings.size());
  for (const auto& s : settings) out.push_back(s.where);
  return fmt::format("{}", fmt::join(out, ", "));
}

std::string saids(const std::vector<Setting>& settings) {
  std::vector<std::string> out;
  out.reserve(settings.size());
  for (const auto& s : settings) out.push_back(s.said);
  return fmt::format("{}", fmt::join(out, ", "));
}

// NCCL's log says it connected the GPUs peer to peer (no SHM, no NET): staging is not what ran.
bool log_says_peer(const Run& run) {
  if (run.nccl_transports.empty()) return false;
  return std::none_of(run.nccl_transports.begin(), run.nccl_transports.end(),
                      [](const std::string& t) { return t.starts_with("SHM") || t.starts_with("NET"); });
}

struct Staged {
  const Point* point = nullptr;
  HardwareBound bound;
};

std::optional<Staged> worst_staged(const Result& r, const Run& run, bool by_setting) {
  std::optional<Staged> worst;
  for (const Point* p : best_per_size(run)) {
    const auto b = hardware_bound(r, run, *p, what_ran(r, run, *p));
    if (!b || !b->fabric.staged.known() || p->busbw_gbps > b->fabric.staged.gbps) continue;
    const bool below = p->busbw_gbps < b->floor();
    if (!below && !by_setting) continue;
    if (!worst || p->busbw_gbps / b->reach < worst->point->busbw_gbps / worst->bound.reach)
      worst = Staged{p, *b};
  }
  return worst;
}

std::optional<Finding> host_staged(const Result& r, const Run& run) {
  if (log_says_peer(run)) return std::nullopt;
  const auto f = run_fabric(r, run);
  if (!f || f->p2p_none_by_design) return std::nullopt;  // host memory is these GPUs' own path
  const auto settings = p2p_settings(r, run);
  // Without a fabric or peer access known, staging is the slowest path without a fault: only a setting
  // that turned peer access off makes it a fault.
  if (f->path == FabricPath::host_staged && settings.empty()) return std::nullopt;
  const auto worst = worst_staged(r, run, !settings.empty());
  if (!worst) return std::nullopt;
  const auto& p = *worst->point;
  const auto& b = worst->bound;
  const std::string over = f->path == FabricPath::gpu_fabric ? "the GPUs' fabric" : "peer-to-peer";
  return Finding{
      "SIGNATURE_HOST_STAGED", Severity::error,
      fmt::format(
          "{} {} on {} x {}: busbw {:.1f} GB/s is at or below what staging through host memory over PCIe "
          "carries, {:.1f} GB/s ({}){}: NCCL moved the data through host memory (SHM), not over {} ({}){}",
          run.collective, format_bytes(p.bytes), run.gpus.size(), gpu_name(r, run.gpus), p.busbw_gbps,
          f->staged.gbps, f->staged.source,
          p.busbw_gbps < b.floor()
              ? fmt::format(", and {:.0f}% of what a healthy run reaches there, {:.1f} GB/s",
                            p.busbw_gbps / b.reach * 100, b.reach)
              : "",
          over, f->what,
          settings.empty() ? "" : fmt::format("; {} turns peer-to-peer off", wheres(settings))),
      fmt::format("{} over {}: above {:.1f} GB/s", run.collective, over, f->staged.gbps),
      settings.empty()
          ? "what turns peer access off: NCCL_P2P_DISABLE=1 or NCCL_P2P_LEVEL where the run started; PCIe "
            "ACS or the IOMMU redirecting peer traffic (bare metal: ACS off, iommu=pt; `fabricbench doctor` "
            "reads both); a VM or container without peer access (P2P passthrough, docker --ipc=host); "
            "NVLinks down or the fabric manager stopped (nvidia-smi nvlink -s). NCCL's log "
            "(NCCL_DEBUG=INFO) names the transport: SHM where P2P was due"
          : fmt::format("unset {} (it is the cause), unless the run meant to measure host memory",
                        saids(settings))};
}

std::optional<Finding> sockets(const Result& r, const Run& run) {
  if (nccl_hosts(r, run) < 2) return std::nullopt;
  const auto used = network_used(r, run);
  if (used.path != NetPath::sockets) return std::nullopt;
  const auto range = rdma_range(r, run);
  if (!range) return std::nullopt;
  const Point* worst = nullptr;
  for (const Point* p : best_per_size(run))
    if (p->bytes >= nic_figure_from_bytes(run) &&
        p->busbw_gbps < range->low * (1 - kReachTolerance - interval(*p)) &&
        (worst == nullptr || p->busbw_gbps < worst->busbw_gbps))
      worst = p;
  if (worst == nullptr) return std::nullopt;
  const auto settings = socket_settings(r, run);
  return Finding{
      "SIGNATURE_SOCKETS", Severity::error,
      fmt::format(
          "{} {} on {} x {} across {} hosts: busbw {:.1f} GB/s is {:.0f}% of what the slowest datacenter "
          "network of these GPUs carries, {:.1f} GB/s ({}); NCCL's network between the hosts was TCP "
          "sockets ({}){}",
          run.collective, format_bytes(worst->bytes), run.gpus.size(), gpu_name(r, run.gpus), result_hosts(r),
          worst->busbw_gbps, worst->busbw_gbps / range->low * 100, range->low, range->source, used.evidence,
          settings.empty() ? "" : fmt::format("; {} turns the RDMA transport off", wheres(settings))),
      fmt::format("NCCL's IB/RoCE transport or its NET plugin between the hosts: at least {:.1f} GB/s",
                  range->low),
      settings.empty()
          ? "what puts NCCL on sockets: no NET plugin for the fabric (EFA: aws-ofi-nccl; GPUDirect-TCPX/O: "
            "its plugin), NCCL_IB_DISABLE=1 or NCCL_NET=Socket where the run started, the RDMA devices not "
            "in the container (/dev/infiniband) or their ports down, the wrong interface "
            "(NCCL_SOCKET_IFNAME); NCCL's log (NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET) says which "
            "network it used"
          : fmt::format("unset {} (it is the cause) where the hosts have an RDMA network", saids(settings))};
}

}  // namespace

std::vector<Finding> check_fallback_signatures(const Result& r) {
  std::vector<Finding> out;
  for (const auto& run : r.runs) {
    if (!judged_run(run) || run.points.empty()) continue;
    if (auto f = host_staged(r, run)) out.push_back(std::move(*f));
    if (auto f = sockets(r, run)) out.push_back(std::move(*f));
  }
  // One run says it for the job: every run shares NCCL's set-up, so the first of each signature.
  std::vector<Finding> once;
  for (auto& f : out)
    if (std::none_of(once.begin(), once.end(), [&](const Finding& g) { return g.code == f.code; }))
      once.push_back(std::move(f));
  return once;
}

}  // namespace fb
