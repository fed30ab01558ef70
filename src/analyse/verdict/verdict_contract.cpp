#include "analyse/verdict/verdict_contract.hpp"

#include <algorithm>
#include <array>

#include "analyse/expect/hardware_bound.hpp"
#include "analyse/expect/nvlink_domain.hpp"
#include "analyse/expect/reach.hpp"
#include "analyse/scope/gpu_names.hpp"
#include "core/text.hpp"

namespace fb {
namespace {

bool always(const Result&) { return true; }
bool has_pairs(const Result& r) { return !r.p2p.empty(); }
bool has_judged_runs(const Result& r) { return std::any_of(r.runs.begin(), r.runs.end(), judged_run); }
// A ring across hosts crosses the NICs: one host's path ceiling does not apply to it; one NVLink domain
// across trays is one host as NCCL counts them.
bool has_intra_host_runs(const Result& r) {
  return std::any_of(r.runs.begin(), r.runs.end(),
                     [&](const Run& run) { return judged_run(run) && nccl_hosts(r, run) == 1; });
}
bool has_kind(const Result& r, RunKind kind) {
  return std::any_of(r.runs.begin(), r.runs.end(), [&](const Run& run) { return run.kind == kind; });
}
bool has_scale(const Result& r) { return has_kind(r, RunKind::scale); }
bool has_algos(const Result& r) { return has_kind(r, RunKind::algos); }
bool has_network(const Result& r) { return r.host.config && r.host.config->network.read; }
bool has_hosts(const Result& r) { return r.hosts.size() >= 2; }
bool has_nodes(const Result& r) { return r.nodes.has_value(); }

std::string_view can(const Result&) { return ""; }
// Why a check could not run, with the flag or file that would let it (the headline says both).
std::string_view no_topology(const Result& r) {
  return r.topology ? ""
                    : "the document has no topology: --topo FILE (nvidia-smi topo -m or rocm-smi --showtopo)";
}
std::string_view no_transports(const Result& r) {
  const bool read =
      std::any_of(r.runs.begin(), r.runs.end(), [](const Run& run) { return !run.nccl_transports.empty(); });
  return read ? ""
              : "NCCL's log was not read, so its transports are not known: --nccl-log FILE (NCCL_DEBUG=INFO)";
}
std::string_view no_host_facts(const Result& r) {
  return r.host.config ? ""
                       : "the host's configuration was not read: `fabricbench doctor` on the host reads it";
}
std::string_view no_fabric(const Result& r) {
  const bool known = std::any_of(r.runs.begin(), r.runs.end(), [&](const Run& run) {
    return judged_run(run) && nccl_hosts(r, run) == 1 && run_fabric(r, run).has_value();
  });
  return known ? ""
               : "neither the topology nor the GPU table describes the GPUs' fabric: --topo FILE (nvidia-smi "
                 "topo -m "
                 "or rocm-smi --showtopo), or --gpu NAME where the output names no GPU";
}
// Another tool's output whose environment was not in it: its NCCL_* settings are unknown, not none.
std::string_view no_environment(const Result& r) {
  return r.source && r.source->env_sources.empty()
             ? "the run's environment is not in the output: paste the command line with its NCCL_* settings, "
               "or "
               "--nccl-log FILE (NCCL_DEBUG=INFO prints the settings it read)"
             : "";
}

constexpr std::array kRules{
    CheckRule{"run", "RUN_, GPU_LOST, DATA_WRONG, RESULT_, ONE_GPU",
              "the run's status, lost GPUs, wrong data, noise", always, can},
    CheckRule{"transports", "NCCL_FALLBACK, NET_, SIGNATURE_",
              "NCCL's transports and network, and figures only a fallback explains", has_judged_runs,
              no_transports, CheckAction::drain, "--nccl-log FILE"},
    CheckRule{"topology", "TOPO_", "links, PCIe, peer access, NUMA", always, no_topology, CheckAction::drain,
              "--topo FILE"},
    CheckRule{"pairs", "P2P_, HOST_LINK_SLOW",
              "pairs and host links against peers, ceilings and expectations", has_pairs, can},
    CheckRule{"environment", "ENV_", "NCCL settings in the environment", always, no_environment,
              CheckAction::drain, "the command line and its NCCL_* settings in the paste"},
    CheckRule{"collectives_ceiling", "BUSBW_BELOW_CEILING, BUSBW_ABOVE_CEILING",
              "collectives against the bound and the physical ceiling of their hardware", has_intra_host_runs,
              no_fabric, CheckAction::drain, "--topo FILE, or --gpu NAME"},
    CheckRule{"collectives_expected", "BUSBW_BELOW_EXPECTED, NO_EXPECTATION, NVLS_OFF, BUSBW_ABOVE_NIC_SUM",
              "collectives against the expectation of what ran", has_judged_runs, can, CheckAction::drain,
              "--expectations FILE, or the hosts' NICs: `fabricbench doctor` under the job"},
    CheckRule{"scaling", "SCALE_", "busbw as GPUs are added", has_scale, can},
    CheckRule{"algorithms", "ALGO_", "forced algorithms against NCCL's choice", has_algos, can},
    // Before "host": a check owns the codes no check before it took, and HOST_ would take these.
    CheckRule{"host_consistency", "HOST_MISMATCH_",
              "the same versions, NCCL_* settings, GPUs, NICs and NET plugin on every host of a job",
              has_hosts, can, CheckAction::fix_configuration},
    CheckRule{"host", "HOST_", "the host's configuration and the GPUs' health", always, no_host_facts,
              CheckAction::drain, "`fabricbench doctor` on the host"},
    CheckRule{"network", "NIC_", "the host's network ports and GPUDirect RDMA", has_network, can},
    CheckRule{"nodes", "NODE_", "pairs of hosts against the reference: the slow hosts and links named",
              has_nodes, can},
};

// Codes that say a check could not judge, not that something is wrong.
bool means_unknown(const std::string& code) { return code == "NO_EXPECTATION" || code == "NODE_NOT_JUDGED"; }

bool owns(const CheckRule& rule, const std::string& code) {
  for (auto name : split(rule.codes, ',')) {
    if (name.starts_with(' ')) name.erase(0, 1);
    if (name.ends_with('_') ? code.starts_with(name) : code == name) return true;
  }
  return false;
}

CheckStatus status_of(const Finding& f) {
  if (means_unknown(f.code)) return CheckStatus::unknown;
  switch (f.severity) {
    case Severity::error:
      return CheckStatus::critical;
    case Severity::warning:
      return CheckStatus::warning;
    default:
      return CheckStatus::info;
  }
}

// One check from the findings it owns; `cannot` when none and its input is missing.
CheckVerdict judge_check(const CheckRule& rule, const std::vector<const Finding*>& mine,
                         std::string_view cannot) {
  CheckVerdict c;
  c.check = rule.check;
  const Finding* worst = nullptr;
  for (const auto* f : mine) {
    c.codes.push_back(f->code);
    if (worst == nullptr || status_of(*f) > status_of(*worst)) worst = f;
  }
  if (worst != nullptr) {
    c.status = status_of(*worst);
    c.evidence = worst->evidence;
  } else if (!cannot.empty()) {
    c.status = CheckStatus::unknown;
    c.evidence = cannot;
  }
  c.action = action_for(c.status, rule.critical);
  return c;
}

}  // namespace

std::string_view check_remedy(std::string_view check) {
  for (const auto& rule : kRules)
    if (rule.check == check) return rule.remedy;
  return "";
}

CheckAction action_for(CheckStatus s, CheckAction critical) {
  if (s == CheckStatus::critical) return critical;
  return s == CheckStatus::warning ? CheckAction::investigate : CheckAction::none;
}

Verdict verdict_of(const Result& r, const std::vector<Finding>& findings) {
  Verdict v;
  v.expectations = r.expectations ? r.expectations->file : "built-in";
  std::vector<bool> taken(findings.size(), false);
  for (const auto& rule : kRules) {
    std::vector<const Finding*> mine;
    for (std::size_t i = 0; i < findings.size(); ++i)
      if (!taken[i] && owns(rule, findings[i].code)) {
        mine.push_back(&findings[i]);
        taken[i] = true;
      }
    if (mine.empty() && !rule.applies(r)) continue;
    v.checks.push_back(judge_check(rule, mine, rule.cannot(r)));
  }
  std::vector<const Finding*> other;
  for (std::size_t i = 0; i < findings.size(); ++i)
    if (!taken[i]) other.push_back(&findings[i]);
  static constexpr CheckRule kOther{"other", "", "", always, can};
  if (!other.empty()) v.checks.push_back(judge_check(kOther, other, ""));
  for (const auto& c : v.checks) {
    v.status = std::max(v.status, c.status);
    v.action = std::max(v.action, c.action);  // a configuration fault beside a broken host: drain
  }
  return v;
}

}  // namespace fb
