#include "analyse/verdict/gate_policy.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace fb {
namespace {

using K = FindingKind;
using B = RaisedBy;

// Every code the rules raise (docs/verdicts.md lists each with its severities). A code that is a
// warning at most never drains under the default gate; `--fail-on warning` drains on node warnings.
constexpr std::array kRows{
    GateRow{"RUN_FAILED", K::node, B::any,
            "the doctor could not finish: no GPU, no driver, no NCCL, a crash, a kill"},
    GateRow{"RUN_INCOMPLETE", K::node, B::any, ""},
    GateRow{"RUN_REFUSED", K::job, B::host,
            "info: a job across hosts stopped at its preflight; the HOST_MISMATCH_* errors say what to fix"},
    GateRow{"GPU_LOST", K::node, B::host, ""},
    GateRow{"DATA_WRONG", K::node, B::collectives, ""},
    GateRow{"RESULT_NOISY", K::node, B::collectives,
            "on a busy node another job's traffic: run the prolog on idle nodes"},
    GateRow{"RESULT_UNBOUNDED", K::advice, B::collectives, "info: too few samples to bound the median"},
    GateRow{"RESULT_JITTER", K::node, B::collectives, ""},
    GateRow{"RESULT_TAIL", K::node, B::collectives, ""},
    GateRow{"NCCL_FALLBACK", K::node, B::collectives, "error where every pair has peer access or a fabric"},
    GateRow{"NET_SOCKET", K::node, B::collectives,
            "NCCL on TCP sockets (where IB/RoCE ports are up, the evidence names them)"},
    GateRow{"NET_NO_GDR", K::node, B::collectives, ""},
    GateRow{"TOPO_NVLINK_DOWN", K::node, B::host, ""},
    GateRow{"TOPO_NVLINK_UNEVEN", K::node, B::host, ""},
    GateRow{"TOPO_NO_P2P", K::node, B::host, "error on a fabric or one PCIe switch; info across sockets"},
    GateRow{"TOPO_PCIE_WIDTH_DOWN", K::node, B::host,
            "a warning only where a host-link copy shows the cost (pairs stage)"},
    GateRow{"TOPO_PCIE_SPEED_DOWN", K::node, B::host,
            "a warning only where a host-link copy shows the cost (pairs stage)"},
    GateRow{"TOPO_PCIE_ROOT_UNEVEN", K::node, B::host, ""},
    GateRow{"TOPO_HOST_PATH", K::advice, B::host, "info: how the machine is built"},
    GateRow{"TOPO_NUMA_SPREAD", K::advice, B::host, "info: how the machine is built"},
    GateRow{"P2P_SLOW_PAIR", K::node, B::pairs, ""},
    GateRow{"P2P_SLOW_HOST_LINK", K::node, B::pairs, ""},
    GateRow{"P2P_SLOW_MEMORY", K::node, B::pairs, ""},
    GateRow{"P2P_BELOW_CEILING", K::node, B::pairs, ""},
    GateRow{"P2P_BELOW_EXPECTED", K::node, B::pairs, ""},
    GateRow{"P2P_WRONG_DATA", K::node, B::pairs, ""},
    GateRow{"P2P_STAGED", K::advice, B::pairs, "info"},
    GateRow{"HOST_LINK_SLOW", K::node, B::pairs, ""},
    GateRow{"ENV_NCCL_OVERRIDE", K::job, B::host, "NCCL_* settings of the environment the check ran in"},
    GateRow{"BUSBW_BELOW_CEILING", K::node, B::collectives, ""},
    GateRow{"BUSBW_BELOW_EXPECTED", K::node, B::collectives,
            "an error below 60% of the expectation (drain), a warning above"},
    GateRow{"NO_EXPECTATION", K::advice, B::collectives, "info (UNKNOWN): no row for the machine"},
    GateRow{"NVLS_OFF", K::advice, B::collectives, "info: judged against the ring row"},
    GateRow{"BUSBW_ABOVE_NIC_SUM", K::advice, B::collectives, "info: NVLSTree's figure is not the network's"},
    GateRow{"SCALE_BUSBW_DROP", K::node, B::scaling, ""},
    GateRow{"ONE_GPU", K::advice, B::any, "info: nothing between GPUs to measure"},
    GateRow{"ALGO_FORCED_FASTER", K::advice, B::algorithms, "a tuning suggestion for NCCL_ALGO/NCCL_PROTO"},
    GateRow{"HOST_MISMATCH_ENV", K::job, B::host,
            "the job's NCCL_* settings differ between hosts: fix the job's configuration"},
    GateRow{"HOST_MISMATCH_COMMAND", K::job, B::host,
            "the hosts were started with different arguments: one command line for the job"},
    GateRow{"HOST_MISMATCH_HANG", K::job, B::any,
            "a hang explained by the job's NCCL_* differences: fix the job's configuration, not the hosts"},
    GateRow{"HOST_MISMATCH_NCCL", K::job, B::host,
            "NCCL refuses ranks of different versions: one image for the job (the odd one out is named)"},
    GateRow{"HOST_MISMATCH_DRIVER", K::node, B::host,
            "every host of the job is told: the odd one out is named in the evidence"},
    GateRow{"HOST_MISMATCH_GPUS", K::node, B::host, ""},
    GateRow{"HOST_MISMATCH_NICS", K::node, B::host, ""},
    GateRow{"HOST_MISMATCH_NET_PLUGIN", K::node, B::host, ""},
    GateRow{"HOST_ACS_REDIRECT", K::node, B::host,
            "an error where the pair lost peer access or NCCL fell back"},
    GateRow{"HOST_IOMMU_TRANSLATION", K::node, B::host, "an error where a PCIe pair's P2P is broken"},
    GateRow{"HOST_NUMA_BALANCING", K::node, B::host, "info on NVIDIA, a warning on AMD"},
    GateRow{"HOST_PERSISTENCE_OFF", K::node, B::host, "info"},
    GateRow{"HOST_CLOCKS_THROTTLED", K::node, B::host,
            "error for a hardware slowdown, warning for SW thermal, info for the power cap"},
    GateRow{"HOST_ECC_UNCORRECTED", K::node, B::host, ""},
    GateRow{"HOST_ROW_REMAP", K::node, B::host, "a pending remap: reset the GPU; a failed one: replace it"},
    GateRow{"HOST_XID", K::node, B::host,
            "an error for the hardware Xids (48, 63, 64, 74, 79, 92, 94, 95, 119, 120)"},
    GateRow{"HOST_SHM_SMALL", K::node, B::host,
            "the container's /dev/shm: an error where the run's failure names it"},
    GateRow{"HOST_NOT_READABLE", K::advice, B::host, "info: run as root where these checks matter"},
    GateRow{"NIC_PORT_DOWN", K::node, B::host, "a warning for IB/RoCE ports, info for Ethernet"},
    GateRow{"NIC_RATE_MISMATCH", K::node, B::host, "a warning for IB/RoCE, info for Ethernet"},
    GateRow{"NIC_FAR_FROM_GPU", K::node, B::host, ""},
    GateRow{"NIC_NO_GDR", K::node, B::host, ""},
    GateRow{"NODE_SLOW", K::node, B::nodes, "`fabricbench nodes`: the exclude file"},
    GateRow{"NODE_SLOW_LINK", K::node, B::nodes, "`fabricbench nodes`: the path between two hosts"},
    GateRow{"NODE_TOO_FEW_PAIRS", K::advice, B::nodes, "info"},
    GateRow{"NODE_NOT_JUDGED", K::advice, B::nodes, "the nodes check UNKNOWN: the hosts were not judged"},
};

std::string_view stage_name(RaisedBy by) {
  switch (by) {
    case RaisedBy::host:
      return "host";
    case RaisedBy::collectives:
      return "collectives";
    case RaisedBy::pairs:
      return "pairs";
    case RaisedBy::scaling:
      return "scaling";
    case RaisedBy::algorithms:
      return "algorithms";
    case RaisedBy::nodes:
      return "nodes";
    default:
      return "any";
  }
}

std::string_view kind_name(FindingKind kind) {
  switch (kind) {
    case FindingKind::node:
      return "the node";
    case FindingKind::job:
      return "a job's configuration";
    default:
      return "advice";
  }
}

// Whether the prolog (host and collectives stages) or --passive (host only) can raise a row's code.
std::string_view checked(const GateRow& row, bool measures) {
  const bool raised =
      row.by == RaisedBy::any || row.by == RaisedBy::host || (measures && row.by == RaisedBy::collectives);
  return raised ? "checked" : "not checked";
}

}  // namespace

const GateRow* gate_row(std::string_view code) {
  const auto* it = std::find_if(kRows.begin(), kRows.end(), [&](const GateRow& r) { return r.code == code; });
  return it == kRows.end() ? nullptr : &*it;
}

bool fails_gate(const Finding& f, FailOn level) {
  const auto* row = gate_row(f.code);
  const FindingKind kind = row != nullptr ? row->kind : FindingKind::node;
  if (f.severity == Severity::error) return true;  // CRITICAL: the verdict's action is drain
  return level == FailOn::warning && f.severity == Severity::warning && kind == FindingKind::node;
}

bool fails_gate(const Result& r, FailOn level) {
  const auto fails = [&](const std::vector<Finding>& findings) {
    return std::any_of(findings.begin(), findings.end(),
                       [&](const Finding& f) { return fails_gate(f, level); });
  };
  return fails(r.findings) ||
         std::any_of(r.hosts.begin(), r.hosts.end(), [&](const HostSection& s) { return fails(s.findings); });
}

std::string gate_policy_markdown() {
  std::string md =
      "| code | about | stage | prolog (`--prolog`) | periodic check on a busy node (`--passive`) | note |\n"
      "|---|---|---|---|---|---|\n";
  for (const auto& row : kRows)
    md += fmt::format("| {} | {} | {} | {} | {} | {} |\n", row.code, kind_name(row.kind), stage_name(row.by),
                      checked(row, true), checked(row, false), row.note.empty() ? "-" : row.note);
  return md;
}

}  // namespace fb
