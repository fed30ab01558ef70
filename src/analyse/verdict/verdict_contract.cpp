#include "analyse/verdict/verdict_contract.hpp"

#include <algorithm>
#include <array>

#include "analyse/expect/reach.hpp"
#include "analyse/scope/gpu_names.hpp"
#include "core/text.hpp"

namespace fb {
namespace {

bool always(const Result&) { return true; }
bool has_pairs(const Result& r) { return !r.p2p.empty(); }
bool has_judged_runs(const Result& r) { return std::any_of(r.runs.begin(), r.runs.end(), judged_run); }
// A ring across hosts crosses the NICs: one host's path ceiling does not apply to it.
bool has_intra_host_runs(const Result& r) { return has_judged_runs(r) && !spans_hosts(r); }
bool has_kind(const Result& r, RunKind kind) {
  return std::any_of(r.runs.begin(), r.runs.end(), [&](const Run& run) { return run.kind == kind; });
}
bool has_scale(const Result& r) { return has_kind(r, RunKind::scale); }
bool has_algos(const Result& r) { return has_kind(r, RunKind::algos); }
bool has_network(const Result& r) { return r.host.config && r.host.config->network.read; }
bool has_hosts(const Result& r) { return r.hosts.size() >= 2; }
bool has_nodes(const Result& r) { return r.nodes.has_value(); }

std::string_view can(const Result&) { return ""; }
std::string_view no_topology(const Result& r) { return r.topology ? "" : "the document has no topology"; }
std::string_view no_transports(const Result& r) {
  const bool read =
      std::any_of(r.runs.begin(), r.runs.end(), [](const Run& run) { return !run.nccl_transports.empty(); });
  return read ? "" : "NCCL's log was not read: its transports are not recorded";
}
std::string_view no_host_facts(const Result& r) {
  return r.host.config ? "" : "the host's configuration was not read";
}

constexpr std::array kRules{
    CheckRule{"run", "RUN_, GPU_LOST, DATA_WRONG, RESULT_, ONE_GPU",
              "the run's status, lost GPUs, wrong data, noise", always, can},
    CheckRule{"transports", "NCCL_FALLBACK, NET_", "NCCL's transports and network", has_judged_runs,
              no_transports},
    CheckRule{"topology", "TOPO_", "links, PCIe, peer access, NUMA", always, no_topology},
    CheckRule{"pairs", "P2P_, HOST_LINK_SLOW",
              "pairs and host links against peers, ceilings and expectations", has_pairs, can},
    CheckRule{"environment", "ENV_", "NCCL settings in the environment", always, can},
    CheckRule{"collectives_ceiling", "BUSBW_BELOW_CEILING", "collectives against the ring's path ceiling",
              has_intra_host_runs, no_topology},
    CheckRule{"collectives_expected", "BUSBW_BELOW_EXPECTED, NO_EXPECTATION, NVLS_OFF, BUSBW_ABOVE_NIC_SUM",
              "collectives against the expectation of what ran", has_judged_runs, can},
    CheckRule{"scaling", "SCALE_", "busbw as GPUs are added", has_scale, can},
    CheckRule{"algorithms", "ALGO_", "forced algorithms against NCCL's choice", has_algos, can},
    // Before "host": a check owns the codes no check before it took, and HOST_ would take these.
    CheckRule{"host_consistency", "HOST_MISMATCH_",
              "the same versions, NCCL_* settings, GPUs, NICs and NET plugin on every host of a job",
              has_hosts, can, CheckAction::fix_configuration},
    CheckRule{"host", "HOST_", "the host's configuration and the GPUs' health", always, no_host_facts},
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
