// Collective busbw against the row of what ran (collective_verdicts.hpp lists the codes).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <utility>

#include "analyse/expect/ceilings.hpp"
#include "analyse/expect/cross_host_expectation.hpp"
#include "analyse/expect/expectations.hpp"
#include "analyse/expect/expected_figure.hpp"
#include "analyse/expect/hardware_bound.hpp"
#include "analyse/expect/nvlink_domain.hpp"
#include "analyse/expect/reach.hpp"
#include "analyse/expect/what_ran.hpp"
#include "analyse/run/collective_verdicts.hpp"
#include "analyse/scope/gpu_model.hpp"
#include "analyse/scope/gpu_names.hpp"
#include "analyse/scope/vendor_tools.hpp"
#include "core/units.hpp"

namespace fb {
namespace {

// One run held against its expectations: the worst point below its own, whether any held, why NVLS
// was off where the table has NVLS rows, and the point furthest above the NIC sum (not a ring's).
struct RunJudgement {
  const Point* worst = nullptr;
  std::optional<PointExpectation> worst_e;
  WhatRan worst_w;
  bool any = false;
  std::string nvls_off;
  std::optional<Expected> ring_row;
  const Point* above_nic = nullptr;
  std::optional<NicSum> nic;
  WhatRan nic_w;
  bool bound = false;  // a point without a row held against the hardware's bound
  // The point furthest below a published drain/replace line (gate_for), if any is.
  const Point* gated = nullptr;
  std::optional<Expected> gate;
  std::optional<PointExpectation> gated_e;
  WhatRan gated_w;
};

void judge_gate(const Result& r, const Run& run, const Point& p, const WhatRan& w, const PointExpectation& e,
                RunJudgement& j) {
  const auto gate = gate_for(r, collective_query(r, run, p, w));
  if (!gate || p.busbw_gbps >= gate->value * (1 - interval(p))) return;
  if (j.gated != nullptr && p.busbw_gbps / gate->value >= j.gated->busbw_gbps / j.gate->value) return;
  j.gated = &p;
  j.gate = gate;
  j.gated_e = e;
  j.gated_w = w;
}

void judge_point(const Result& r, const Run& run, const Point& p, RunJudgement& j) {
  const auto w = what_ran(r, run, p);
  if (auto nic = above_nic_sum(r, run, p, w)) {
    if (j.above_nic == nullptr || p.busbw_gbps > j.above_nic->busbw_gbps) {
      j.above_nic = &p;
      j.nic = std::move(nic);
      j.nic_w = w;
    }
    j.any = true;  // said by the label, not "no expectation"
    return;
  }
  const auto e = expected_of_point(r, run, p, w);
  if (!e) {  // held against the hardware's bound instead (BUSBW_BELOW_CEILING): judged, not "no expectation"
    j.bound = j.bound || hardware_bound(r, run, p, w).has_value();
    return;
  }
  j.any = true;
  judge_gate(r, run, p, w, *e, j);
  const auto q = collective_query(r, run, p, w);
  if (!w.nvls_off.empty() && canonical_algo(w.algo) != "NVLS" && has_row_for_algo(r, q, "NVLS"))
    if (auto row = expected_for(r, q)) {
      j.nvls_off = w.nvls_off;
      j.ring_row = std::move(row);
    }
  if (p.busbw_gbps >= e->floor()) return;
  if (j.worst == nullptr || p.busbw_gbps / e->value < j.worst->busbw_gbps / j.worst_e->value) {
    j.worst = &p;
    j.worst_e = e;
    j.worst_w = w;
  }
}

// " (node[01-04]:0-7)" across hosts; "" on one.
std::string across_hosts_phrase(const Result& r, const Run& run) {
  return spans_hosts(r) ? fmt::format(" ({})", run_gpu_list(r, run)) : "";
}

std::string ceiling_text(const Result& r, const Run& run) {
  const auto f = run_fabric(r, run);
  return f ? fmt::format("; the ring's path ceiling is {:.1f} GB/s", f->ring.gbps) : "";
}

std::string below_hint(const Result& r) {
  const std::string lib = r.host.comm.name.empty() ? "NCCL" : r.host.comm.name;
  if (spans_hosts(r))
    return fmt::format(
        "the NIC_*, NET_* and HOST_MISMATCH_* findings may say why; otherwise `fabricbench nodes` "
        "names a slow host or link, and {}'s log (NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET) "
        "which ports it used",
        lib);
  return fmt::format(
      "the findings above may say why; otherwise compare `fabricbench p2p` per pair, the GPUs' "
      "clocks and power ({}) and {}'s transport (NCCL_DEBUG=INFO)",
      vendor_tools(result_vendor(r)).clocks, lib);
}

// The error line and where it comes from: a published drain/replace line that holds, else 60% of the
// expectation (kFarBelowExpected's derivation, docs/verdicts.md).
std::string error_line(const PointExpectation& e, const std::optional<Expected>& gate) {
  if (gate)
    return fmt::format("an error below {:.1f} GB/s, the published drain/replace line ({})", gate->value,
                       gate->source());
  return fmt::format(
      "an error below {:.1f} GB/s, {:.0f}% of it (4 x the tolerance: no spread between healthy "
      "machines reaches that far, docs/verdicts.md)",
      e.value * kFarBelowExpected, kFarBelowExpected * 100);
}

Finding below_expected(const Result& r, const Run& run, const Point& p, const PointExpectation& e,
                       const WhatRan& w, const std::optional<Expected>& gate) {
  const bool below_gate = gate && p.busbw_gbps < gate->value * (1 - interval(p));
  const bool far =
      below_gate || p.busbw_gbps < e.value * kFarBelowExpected;  // not a spread: the node is sick
  const std::string gate_words =
      below_gate ? fmt::format("; below the published drain/replace line {:.1f} GB/s ({})", gate->value,
                               gate->source())
                 : "";
  return {
      "BUSBW_BELOW_EXPECTED", far ? Severity::error : Severity::warning,
      fmt::format("{} {} B on {} x {}{}{}: busbw {:.1f} GB/s is {:.0f}% of the expected {:.1f} GB/s ({}){}{}",
                  run.collective, p.bytes, run.gpus.size(), gpu_name(r, run.gpus),
                  across_hosts_phrase(r, run), algo_phrase(w), p.busbw_gbps, p.busbw_gbps / e.value * 100,
                  e.value, e.source, gate_words, ceiling_text(r, run)),
      fmt::format(
          "at least {:.1f} GB/s (the expectation less {:.0f}% tolerance and the point's interval); {}",
          e.floor(), e.tolerance * 100, error_line(e, gate)),
      below_gate ? fmt::format("the publisher drains this machine below its line: {}", below_hint(r))
                 : below_hint(r)};
}

Finding nvls_off(const Result& r, const Run& run, const RunJudgement& j) {
  return {
      "NVLS_OFF", Severity::info,
      fmt::format(
          "{} on {} x {}: NVLS (NVLink SHARP) off ({}): judged against the ring row, {:.1f} GB/s ({})",
          run.collective, run.gpus.size(), gpu_name(r, run.gpus), j.nvls_off, j.ring_row->value,
          j.ring_row->source()),
      "NCCL's NVLS where the machine has NVLink SHARP (its default from a few MiB)",
      "unless NVLS is off on purpose, unset NCCL_NVLS_ENABLE=0 and check that the fabric manager runs and "
      "NCCL's log says \"NVLS multicast support is available\""};
}

Finding above_nic(const Result& r, const Run& run, const RunJudgement& j) {
  return {
      "BUSBW_ABOVE_NIC_SUM", Severity::info,
      fmt::format("{} {} B on {} x {} across {} hosts over {}: busbw {:.1f} GB/s is above the NIC sum "
                  "{:.1f} GB/s ({}): {} reduces inside each host or in the switches before or instead of a "
                  "ring across the NICs, so its busbw (a ring's formula) is not what crossed them and is not "
                  "compared with a ring figure",
                  run.collective, j.above_nic->bytes, run.gpus.size(), gpu_name(r, run.gpus), result_hosts(r),
                  j.nic_w.algo.empty() ? "an algorithm NCCL's log did not name" : j.nic_w.algo,
                  j.above_nic->busbw_gbps, j.nic->value, j.nic->source,
                  j.nic_w.algo.empty() ? "such an algorithm (NVLSTree, Tree, CollNet)" : j.nic_w.algo),
      "a ring figure (NCCL_ALGO=Ring) to judge the network against the NIC sum",
      "run `fabricbench run all_reduce` with NCCL_ALGO=Ring across the hosts to measure the network itself"};
}

// Why a run on one host (or NVLink domain) has neither a row nor a bound, and what would give one.
std::string no_bound_reason(const Result& r, const Run& run) {
  if (!run_fabric(r, run))
    return fmt::format(
        "neither the document's topology nor the GPU table (docs/model.md) describes the fabric of "
        "{} GPUs of model {} (--topo FILE: nvidia-smi topo -m or rocm-smi --showtopo)",
        run.gpus.size(), gpu_model_key(gpu_name(r, run.gpus)));
  const auto& p = *std::max_element(run.points.begin(), run.points.end(),
                                    [](const Point& a, const Point& b) { return a.bytes < b.bytes; });
  return fmt::format(
      "its largest size {} is below where bandwidth dominates on {} GPUs (a healthy run reaches "
      "less than half its 1 GiB figure there: sweep to 1 GiB, -e 1G)",
      format_bytes(p.bytes), run.gpus.size());
}

Finding no_row(const Result& r, const std::vector<std::pair<std::string, std::string>>& none) {
  std::vector<std::string> parts;
  parts.reserve(none.size());
  for (const auto& [collective, reason] : none) parts.push_back(fmt::format("{}: {}", collective, reason));
  return {"NO_EXPECTATION", Severity::info,
          fmt::format("no expected figure and no bound on {} (model {}): {}", gpu_name(r, {}),
                      gpu_model_key(gpu_name(r, {})), fmt::join(parts, "; ")),
          "an entry in the expectations table, or a bound from the GPUs' fabric (docs/verdicts.md, "
          "docs/model.md)",
          "pass --topo FILE (the GPUs' links), --gpu NAME where the output names no GPU, or the site's own "
          "figure with "
          "--expectations FILE"};
}

// Across hosts a collective crosses the NICs (one host's NVLink does not bound it): why the NICs gave no
// figure for a run ("sockets have no rate: ...", an algorithm without one, sizes too small).
std::string cross_host_reason(const Result& r, const Run& run) {
  const auto& p = *std::max_element(run.points.begin(), run.points.end(),
                                    [](const Point& a, const Point& b) { return a.bytes < b.bytes; });
  const auto f = cross_host_figure(r, run, what_ran(r, run, p));
  if (!f.unknown.empty()) return f.unknown;
  const auto from = nic_figure_from_bytes(run);
  return fmt::format(
      "the largest size {} is below the {} the NIC figures hold from on {} GPUs (a ring's "
      "2(n-1) steps each pay the network's latency)",
      format_bytes(p.bytes), format_bytes(from), run.gpus.size());
}

Finding no_cross_host_figure(const Result& r, const std::vector<std::pair<std::string, std::string>>& none) {
  std::vector<std::pair<std::string, std::vector<std::string>>> by_reason;  // reason -> collectives
  for (const auto& [collective, reason] : none) {
    const auto it =
        std::find_if(by_reason.begin(), by_reason.end(), [&](const auto& g) { return g.first == reason; });
    if (it == by_reason.end())
      by_reason.push_back({reason, {collective}});
    else
      it->second.push_back(collective);
  }
  std::vector<std::string> parts;
  parts.reserve(by_reason.size());
  for (const auto& [reason, collectives] : by_reason)
    parts.push_back(fmt::format("{} ({})", reason, fmt::join(collectives, ", ")));
  return {
      "NO_EXPECTATION", Severity::info,
      fmt::format("no expectation: {}; on {} x {} across {} hosts ({}; model {})", fmt::join(parts, "; "),
                  r.gpus.size(), gpu_name(r, {}), result_hosts(r), fmt::join(document_gpu_ranges(r), ", "),
                  gpu_model_key(gpu_name(r, {}))),
      "the hosts' IB/RoCE ports with their rates (`fabricbench doctor` reads them on every host), NCCL's "
      "IB transport, and an algorithm with a figure (docs/verdicts.md, \"Across hosts\")",
      "run `fabricbench doctor` under the job's launcher, or add the site's healthy cross-host figure with "
      "--expectations FILE (`fabricbench expectations --from` a healthy run)"};
}

}  // namespace

std::vector<Finding> check_expectations(const Result& r) {
  std::vector<Finding> out;
  std::vector<std::pair<std::string, std::string>> none;         // collective, why
  std::vector<std::pair<std::string, std::string>> none_across;  // collective, why
  for (const auto& run : r.runs) {
    if (!judged_run(run) || run.points.empty()) continue;
    const bool across = nccl_hosts(r, run) > 1;
    RunJudgement j;
    for (const Point* p : best_per_size(run)) judge_point(r, run, *p, j);
    if (!j.any && !j.bound) {
      if (across)
        none_across.emplace_back(run.collective, cross_host_reason(r, run));
      else
        none.emplace_back(run.collective, no_bound_reason(r, run));
    }
    if (j.gated != nullptr)  // below a drain/replace line: the error, citing the line
      out.push_back(below_expected(r, run, *j.gated, *j.gated_e, j.gated_w, j.gate));
    else if (j.worst != nullptr)
      out.push_back(below_expected(r, run, *j.worst, *j.worst_e, j.worst_w,
                                   gate_for(r, collective_query(r, run, *j.worst, j.worst_w))));
    if (j.ring_row) out.push_back(nvls_off(r, run, j));
    if (j.above_nic != nullptr) out.push_back(above_nic(r, run, j));
  }
  if (!none.empty()) out.push_back(no_row(r, none));
  if (!none_across.empty()) out.push_back(no_cross_host_figure(r, none_across));
  return out;
}

}  // namespace fb
