// Collective busbw against the row of what ran (collective_verdicts.hpp lists the codes).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <utility>

#include "analyse/ceilings.hpp"
#include "analyse/collective_verdicts.hpp"
#include "analyse/expectations.hpp"
#include "analyse/gpu_model.hpp"
#include "analyse/gpu_names.hpp"
#include "analyse/vendor_tools.hpp"
#include "analyse/what_ran.hpp"

namespace fb {
namespace {

// One run held against its rows: the worst point below its row, whether any row held, why NVLS was
// off where the table has NVLS rows, and the NVLSTree point furthest above the NIC sum.
struct RunJudgement {
  const Point* worst = nullptr;
  std::optional<Expected> worst_e;
  WhatRan worst_w;
  bool any = false;
  std::string nvls_off;
  std::optional<Expected> ring_row;
  const Point* above_nic = nullptr;
  std::optional<Expected> nic;
  WhatRan nic_w;
};

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
  const auto q = collective_query(r, run, p, w);
  const auto e = expected_for(r, q);
  if (!e) return;
  j.any = true;
  if (!w.nvls_off.empty() && canonical_algo(w.algo) != "NVLS" && has_row_for_algo(r, q, "NVLS")) {
    j.nvls_off = w.nvls_off;
    j.ring_row = e;
  }
  if (p.busbw_gbps >= e->value * (1 - expectation_tolerance(*e, interval(p)))) return;
  if (j.worst == nullptr || p.busbw_gbps / e->value < j.worst->busbw_gbps / j.worst_e->value) {
    j.worst = &p;
    j.worst_e = e;
    j.worst_w = w;
  }
}

// " (node-a:0,node-b:0)" across hosts; "" on one.
std::string across_hosts_phrase(const Result& r, const Run& run) {
  return spans_hosts(r) ? fmt::format(" ({})", run_gpu_list(r, run)) : "";
}

std::string ceiling_text(const Result& r, const Run& run) {
  const auto c = run_ring_ceiling(r, run);
  return c.known() ? fmt::format("; the ring's path ceiling is {:.1f} GB/s", c.gbps) : "";
}

Finding below_expected(const Result& r, const Run& run, const RunJudgement& j) {
  const auto& p = *j.worst;
  const auto& e = *j.worst_e;
  const double tolerance = expectation_tolerance(e, interval(p));
  const bool far = p.busbw_gbps < e.value * kFarBelowExpected;  // not a spread: the node is sick
  return {
      "BUSBW_BELOW_EXPECTED", far ? Severity::error : Severity::warning,
      fmt::format("{} {} B on {} x {}{}{}: busbw {:.1f} GB/s is {:.0f}% of the expected {:.1f} GB/s ({}){}",
                  run.collective, p.bytes, run.gpus.size(), gpu_name(r, run.gpus),
                  across_hosts_phrase(r, run), algo_phrase(j.worst_w), p.busbw_gbps,
                  p.busbw_gbps / e.value * 100, e.value, e.source(), ceiling_text(r, run)),
      fmt::format("at least {:.1f} GB/s (the expectation less {:.0f}% tolerance and the point's interval)",
                  e.value * (1 - tolerance), tolerance * 100),
      fmt::format("the findings above may say why; otherwise compare `fabricbench p2p` per pair, the GPUs' "
                  "clocks and power ({}) and {}'s transport (NCCL_DEBUG=INFO)",
                  vendor_tools(result_vendor(r)).clocks,
                  r.host.comm.name.empty() ? "NCCL" : r.host.comm.name)};
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
                  "{:.1f} GB/s ({}): NVLSTree reduces inside each host before the network, so its busbw "
                  "(a ring's formula) is not what crossed the NICs and is not compared with a ring figure",
                  run.collective, j.above_nic->bytes, run.gpus.size(), gpu_name(r, run.gpus), result_hosts(r),
                  j.nic_w.algo, j.above_nic->busbw_gbps, j.nic->value, j.nic->source()),
      "a ring figure (NCCL_ALGO=Ring) to judge the network against the NIC sum",
      "run `fabricbench run all_reduce` with NCCL_ALGO=Ring across the hosts to measure the network itself"};
}

Finding no_row(const Result& r, const std::vector<std::string>& none) {
  return {"NO_EXPECTATION", Severity::info,
          fmt::format("no expected figure for {} on {} (model {}): judged only against peers and, where "
                      "the ring's path is known, what a healthy ring reaches of its ceiling (the expected "
                      "figure shown then, with that source)",
                      fmt::join(none, ", "), gpu_name(r, {}), gpu_model_key(gpu_name(r, {}))),
          "an entry in the expectations table (docs/verdicts.md)",
          "add a measured or published figure with its source to analyse/sku_table.cpp, or the site's own "
          "with --expectations FILE"};
}

// Across hosts the ring crosses the NICs: without a cross-host row there is nothing to hold it
// against (one host's NVLink ceiling is not a bound for it).
Finding no_cross_host_row(const Result& r, const std::vector<std::string>& none) {
  const auto names = document_gpu_names(r);
  return {"NO_EXPECTATION", Severity::info,
          fmt::format("no expectation: NIC rate unknown: no cross-host row for {} on {} x {} across {} hosts "
                      "({}; model {}); one host's GPU links do not bound a ring between hosts",
                      fmt::join(none, ", "), names.size(), gpu_name(r, {}), result_hosts(r),
                      fmt::join(names, ", "), gpu_model_key(gpu_name(r, {}))),
          "a cross-host row for the GPU model, GPU count and hosts: the NICs' rate (docs/verdicts.md)",
          "add the site's healthy cross-host figure with --expectations FILE (`fabricbench expectations "
          "--from` a healthy run), or a measured row with its source to analyse/sku_table.cpp"};
}

}  // namespace

std::vector<Finding> check_expectations(const Result& r) {
  std::vector<Finding> out;
  std::vector<std::string> none;
  for (const auto& run : r.runs) {
    if (!judged_run(run)) continue;
    RunJudgement j;
    for (const auto& p : run.points) judge_point(r, run, p, j);
    if (!j.any) none.push_back(run.collective);
    if (j.worst != nullptr) out.push_back(below_expected(r, run, j));
    if (j.ring_row) out.push_back(nvls_off(r, run, j));
    if (j.above_nic != nullptr) out.push_back(above_nic(r, run, j));
  }
  if (!none.empty()) out.push_back(spans_hosts(r) ? no_cross_host_row(r, none) : no_row(r, none));
  return out;
}

}  // namespace fb
