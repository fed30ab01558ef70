#include "analyse/rule_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "analyse/host/host_checks.hpp"
#include "analyse/hosts/host_consistency.hpp"
#include "analyse/hosts/nodes_check.hpp"
#include "analyse/network/net_checks.hpp"
#include "analyse/network/nic_checks.hpp"
#include "analyse/run/algo_selection.hpp"
#include "analyse/run/collective_verdicts.hpp"
#include "analyse/run/environment_rules.hpp"
#include "analyse/run/one_gpu.hpp"
#include "analyse/run/p2p_analysis.hpp"
#include "analyse/run/p2p_expectations.hpp"
#include "analyse/run/run_health.hpp"
#include "analyse/run/scaling.hpp"
#include "analyse/run/transports.hpp"
#include "analyse/scope/run_scope.hpp"
#include "core/error.hpp"
#include "topo/topology_checks.hpp"

namespace fb {
namespace {

bool of_run(const Result&, const JudgeContext& c) { return c.scope != JudgeScope::host_of_job; }
bool of_any(const Result&, const JudgeContext&) { return true; }
// Something was measured (a command that only reads the machine, `topo`, ran no NCCL), or a host of a
// job whose ranks measured.
bool measured(const Result& r, const JudgeContext& c) {
  return c.scope == JudgeScope::host_of_job || !r.runs.empty() || !r.p2p.empty() || r.doctor.has_value();
}
bool one_host_measured(const Result& r, const JudgeContext& c) {
  return c.scope == JudgeScope::run && measured(r, c);
}
bool of_cluster(const Result& r, const JudgeContext& c) { return of_run(r, c) && !r.hosts.empty(); }
bool with_nodes(const Result& r, const JudgeContext& c) { return of_run(r, c) && r.nodes.has_value(); }

template <std::vector<Finding> (*Rule)(const Result&)>
std::vector<Finding> plain(const Result& r, const JudgeContext&) {
  return Rule(r);
}

std::vector<Finding> topology_rule(const Result& r, const JudgeContext& c) {
  if (!r.topology) return {};
  const auto scope = scoped_topology(*r.topology, run_gpus(r));
  auto out = check_topology(scope);
  escalate_link_findings(r, out);
  if (!r.p2p.empty()) {
    auto pairs = check_p2p(r.p2p, scope, c.peer_margin);
    out.insert(out.end(), pairs.begin(), pairs.end());
  }
  return out;
}

std::vector<Finding> environment_rule(const Result& r, const JudgeContext& c) {
  if (c.scope != JudgeScope::host_of_job) return check_environment(r);
  const JobShape job{c.job_gpus, c.job_hosts};
  return check_environment(r, &job);
}

std::vector<Finding> hosts_rule(const Result& r, const JudgeContext&) {
  auto out = compare_hosts(r.hosts);
  for (auto& f : explain_hang(r, out)) out.push_back(std::move(f));
  return out;
}

// A hang the hosts' NCCL settings explain (HOST_MISMATCH_HANG) is the job's to fix: its RUN_FAILED says
// so as a warning, so that no check drains a host for it.
void explained_hang(std::vector<Finding>& findings) {
  const bool explained = std::any_of(findings.begin(), findings.end(),
                                     [](const Finding& f) { return f.code == "HOST_MISMATCH_HANG"; });
  if (!explained) return;
  for (auto& f : findings)
    if (f.code == "RUN_FAILED" && f.evidence.find(kRanPastTimeout) != std::string::npos) {
      f.severity = Severity::warning;
      f.hint =
          "the hosts differ in NCCL settings (HOST_MISMATCH_HANG): the likely cause of the hang, the job's "
          "to fix";
    }
}

std::vector<Finding> nodes_rule(const Result& r, const JudgeContext& c) {
  return c.nodes_ranking != nullptr ? *c.nodes_ranking : check_nodes(r);
}

constexpr std::array kRows{
    RuleRow{"run", "RUN_, GPU_LOST", "every measured result", of_run, plain<check_run_status>},
    RuleRow{"transports", "NCCL_FALLBACK", "collective runs on one host", of_run, plain<check_transports>},
    RuleRow{"network transport", "NET_", "collective runs across hosts", of_run, plain<check_net_transport>},
    RuleRow{"topology and pairs", "TOPO_, P2P_", "the GPUs of the run (of the host, for a host of a job)",
            of_any, topology_rule},
    RuleRow{"pairs expected", "P2P_, HOST_LINK_SLOW", "p2p figures", of_run, plain<check_p2p_expectations>},
    RuleRow{"environment", "ENV_", "every result that measured; a host of a job by the job's shape", measured,
            environment_rule},
    RuleRow{"ceilings", "BUSBW_BELOW_CEILING", "collective runs on one host", of_run, plain<check_ceilings>},
    RuleRow{"expectations", "BUSBW_BELOW_EXPECTED, NO_EXPECTATION, NVLS_OFF, BUSBW_ABOVE_NIC_SUM",
            "collective runs", of_run, plain<check_expectations>},
    RuleRow{"data and noise", "DATA_WRONG, RESULT_", "collective runs and p2p figures", of_run,
            plain<check_data_and_noise>},
    RuleRow{"scaling", "SCALE_", "scale runs", of_run, plain<check_scaling>},
    RuleRow{"algorithms", "ALGO_", "algos runs", of_run, plain<check_algorithms>},
    RuleRow{"one GPU", "ONE_GPU", "a measured result of one host", one_host_measured, plain<check_one_gpu>},
    RuleRow{"hosts of a job", "HOST_MISMATCH_", "a job's host sections (and its hang, where they differ)",
            of_cluster, hosts_rule},
    RuleRow{"pairs of hosts", "NODE_", "the pairs of hosts `nodes` and the doctor measured", with_nodes,
            nodes_rule},
    RuleRow{"host", "HOST_", "the host's facts (each host's, for a host of a job)", of_any,
            plain<check_host>},
    RuleRow{"network ports", "NIC_", "the host's network ports", of_any, plain<check_nics>},
};

}  // namespace

std::span<const RuleRow> rule_rows() { return kRows; }

std::vector<Finding> run_rules(const Result& r, const JudgeContext& c) {
  std::vector<Finding> out;
  for (const auto& row : kRows) {
    if (!row.applies(r, c)) continue;
    auto found = row.judge(r, c);
    out.insert(out.end(), found.begin(), found.end());
  }
  explained_hang(out);
  std::stable_sort(out.begin(), out.end(),
                   [](const Finding& a, const Finding& b) { return a.severity > b.severity; });
  return out;
}

std::string rule_table_markdown() {
  std::string out = "| rule | raises | serves |\n|---|---|---|\n";
  for (const auto& row : kRows) out += fmt::format("| {} | {} | {} |\n", row.name, row.codes, row.serves);
  return out;
}

}  // namespace fb
