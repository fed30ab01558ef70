#include "analyse/run/environment_rules.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>

#include "analyse/expect/what_ran.hpp"
#include "analyse/scope/host_scope.hpp"
#include "analyse/scope/run_scope.hpp"

namespace fb {
namespace {

// What the run shows about its context.
struct RunContext {
  std::size_t gpus = 0;
  bool multi_node = false;
  bool pair_without_p2p = false;  // some pair of the run's GPUs has no peer access
  bool fell_back = false;         // NCCL connected GPUs through SHM or NET
  bool nvls_could_run = false;    // a collective run where the table tells NVLS from ring
};

bool nvls_could_run(const Result& r) {
  for (const auto& run : r.runs)
    for (const auto& p : run.points)
      if (run.kind == RunKind::collective && run.gpus.size() > 2 && nvls_row_applies(r, run, p)) return true;
  return false;
}

RunContext run_context(const Result& r, const JobShape* job) {
  RunContext c;
  std::set<std::string> hosts;
  for (const auto& g : r.gpus) hosts.insert(g.host);
  c.multi_node = hosts.size() > 1;
  c.gpus = r.gpus.size();
  for (const auto& run : r.runs) c.gpus = std::max(c.gpus, run.gpus.size());
  if (job != nullptr) {  // a host of a job: the job's GPUs and hosts are what its settings act on
    c.gpus = std::max(c.gpus, job->gpus);
    c.multi_node = c.multi_node || job->hosts > 1;
  }
  if (r.topology) {  // the run's pairs only: GPU 4's pair does not concern a job on GPUs 0-1
    const auto scoped = scoped_topology(*r.topology, run_gpus(r));
    c.pair_without_p2p = std::any_of(scoped.pairs.begin(), scoped.pairs.end(),
                                     [](const TopoPair& p) { return p.p2p && !*p.p2p; });
  }
  c.fell_back = nccl_fell_back(r);
  c.nvls_could_run = nvls_could_run(r);
  return c;
}

Severity severity_in(const EnvRule& rule, const RunContext& c) {
  switch (rule.context) {
    case EnvContext::always:
      return Severity::warning;
    case EnvContext::network:
      return c.multi_node ? Severity::warning : Severity::info;
    case EnvContext::peer:
      return c.gpus >= 2 ? Severity::warning : Severity::info;
    case EnvContext::shm:
      return c.pair_without_p2p || c.fell_back ? Severity::warning : Severity::info;
    case EnvContext::no_effect:
    case EnvContext::nvls:
      return Severity::info;
  }
  return Severity::info;
}

// A transport switch set to NCCL's default ("0": not disabled) changes nothing.
bool at_default(std::string_view name, const std::string& value) {
  return name.ends_with("_DISABLE") && value == "0";
}

bool disables_a_transport(std::string_view name, const std::string& value) {
  return ((name == "NCCL_P2P_DISABLE" || name == "NCCL_SHM_DISABLE") && value != "0") ||
         name == "NCCL_P2P_LEVEL";
}

// Whether a setting is a warning: it changes this run, is not NCCL's default, and the run is fabricbench's
// own. Another tool's run was configured so on purpose: its settings are said and its figures judged against
// what they made NCCL do (a setting that explains a fault is named by that fault: SIGNATURE_*).
bool warns(const Result& r, const EnvRule& rule, const RunContext& c, std::string_view name,
           const std::string& value) {
  return severity_in(rule, c) == Severity::warning && !at_default(name, value) && !r.source;
}

}  // namespace

const std::vector<EnvRule>& env_rules() {
  static const std::vector<EnvRule> rules{
      {"NCCL_ALGO", "the algorithm (Ring, Tree, NVLS, CollNet...) NCCL would pick per size",
       EnvContext::always},
      {"NCCL_PROTO", "the protocol (LL, LL128, Simple) NCCL would pick per size", EnvContext::always},
      {"NCCL_MAX_CTAS", "the most CTAs (channels) per collective", EnvContext::always},
      {"NCCL_MIN_CTAS", "the fewest CTAs (channels) per collective", EnvContext::always},
      {"NCCL_MAX_NCHANNELS", "the most channels", EnvContext::always},
      {"NCCL_MIN_NCHANNELS", "the fewest channels", EnvContext::always},
      {"NCCL_NTHREADS", "threads per CTA", EnvContext::always},
      {"NCCL_BUFFSIZE", "the buffer per channel and peer", EnvContext::always},
      {"NCCL_TOPO_FILE", "NCCL's view of the machine (an XML topology instead of the real one)",
       EnvContext::always},
      {"NCCL_TOPO_DUMP_FILE", "nothing (writes NCCL's topology out)", EnvContext::no_effect},
      {"NCCL_GRAPH_FILE", "the rings and trees NCCL would search for", EnvContext::always},
      {"NCCL_TUNER_PLUGIN", "NCCL's algorithm and protocol choice (a tuner plugin decides)",
       EnvContext::always},
      {"NCCL_P2P_DISABLE", "the P2P transport: off, GPUs talk through host memory (SHM) instead",
       EnvContext::peer},
      {"NCCL_P2P_LEVEL", "how far apart GPUs may be and still use P2P", EnvContext::peer},
      {"NCCL_P2P_USE_CUDA_MEMCPY", "P2P copies by copy engine instead of SM kernels", EnvContext::peer},
      {"NCCL_SHM_DISABLE", "the SHM transport between GPUs without peer access (then the network)",
       EnvContext::shm},
      {"NCCL_NVLS_ENABLE",
       "NVLink SHARP use: off, all_reduce on NVSwitch machines cannot use the switch's reduction",
       EnvContext::nvls},
      {"NCCL_CUMEM_ENABLE", "how NCCL allocates and shares buffers (cuMem or legacy IPC)",
       EnvContext::no_effect},
      {"NCCL_IB_", "the InfiniBand / RoCE transport between nodes", EnvContext::network},
      {"NCCL_NET_GDR_LEVEL", "when the NIC reads GPU memory directly (GPUDirect RDMA)", EnvContext::network},
      {"NCCL_NET_GDR_READ", "GPUDirect RDMA reads for sends", EnvContext::network},
      {"NCCL_NET", "the network transport between nodes", EnvContext::network},
      {"NCCL_NET_PLUGIN", "the network plugin between nodes", EnvContext::network},
      {"NCCL_SOCKET_IFNAME", "the interfaces for bootstrap and socket transport", EnvContext::network},
      {"NCCL_CROSS_NIC", "whether rings may leave and enter a node on different NICs", EnvContext::network},
      {"NCCL_COLLNET_ENABLE", "in-network reductions (CollNet/SHARP) between nodes", EnvContext::network},
  };
  return rules;
}

const EnvRule* find_env_rule(std::string_view variable) {
  const EnvRule* best = nullptr;
  for (const auto& rule : env_rules()) {
    if (rule.name == variable) return &rule;
    const bool prefix = rule.name.back() == '_' && variable.starts_with(rule.name);
    if (prefix && (best == nullptr || rule.name.size() > best->name.size())) best = &rule;
  }
  return best;
}

std::vector<Finding> check_environment(const Result& r, const JobShape* job) {
  const auto context = run_context(r, job);
  std::vector<std::string> changing;
  std::vector<std::string> inert;
  std::vector<std::string> fallback_causes;
  for (const auto& [name, value] : r.env) {
    const auto* rule = find_env_rule(name);
    if (rule == nullptr || (rule->context == EnvContext::nvls && context.nvls_could_run)) continue;
    const auto entry = fmt::format("{}={} ({}{})", name, value, rule->changes,
                                   at_default(name, value) ? "; NCCL's default, so nothing" : "");
    (warns(r, *rule, context, name, value) ? changing : inert).push_back(entry);
    if (context.fell_back && disables_a_transport(rule->name, value))
      fallback_causes.push_back(fmt::format("{}={}", name, value));
  }
  std::vector<Finding> out;
  const std::string cause =
      fallback_causes.empty()
          ? ""
          : fmt::format(
                "; the run's NCCL connected GPUs through SHM/NET: {} explains the NCCL_FALLBACK finding",
                fmt::join(fallback_causes, " "));
  if (!changing.empty())
    out.push_back(
        {"ENV_NCCL_OVERRIDE", Severity::warning,
         fmt::format("NCCL settings that change this run: {}{}", fmt::join(changing, ", "), cause),
         "NCCL's own choices (no overrides) when judging the machine",
         "unset them (or check they are meant): each forces a choice NCCL would otherwise make from the "
         "topology"});
  if (!inert.empty())
    out.push_back(
        {"ENV_NCCL_OVERRIDE", Severity::info,
         fmt::format("{} ({} GPU(s), {}): {}",
                     r.source ? "NCCL settings of the measured run, read from its output"
                              : "NCCL settings that matter little to this run",
                     context.gpus, context.multi_node ? "several nodes" : "one node", fmt::join(inert, ", ")),
         "nothing to change for this run",
         r.source
             ? "said, not faulted: the measured run was configured so, and its figures are held against what "
               "these settings made NCCL do"
             : "usually deliberate where they are set; they matter on other machines or jobs"});
  return out;
}

}  // namespace fb
