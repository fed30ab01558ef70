#include "analyse/hosts/host_consistency.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "analyse/hosts/must_agree.hpp"
#include "comm/hostlist.hpp"
#include "core/error.hpp"
#include "core/text.hpp"

namespace fb {
namespace {

// One host's value of a fact ("" where the host's fact is unknown: it is then left out).
struct HostValue {
  std::string host;
  std::string value;
};

struct Group {
  std::string value;
  std::vector<std::string> hosts;
};

std::string host_name(const HostSection& h, std::size_t i) {
  if (!h.name.empty()) return h.name;
  return h.host.hostname.empty() ? fmt::format("host{}", i) : h.host.hostname;
}

template <typename ValueOf>
std::vector<HostValue> values_of(const std::vector<HostSection>& hosts, ValueOf value_of) {
  std::vector<HostValue> out;
  for (std::size_t i = 0; i < hosts.size(); ++i)
    if (std::string v = value_of(hosts[i]); !v.empty()) out.push_back({host_name(hosts[i], i), std::move(v)});
  return out;
}

// The hosts grouped by value, the most common value first (ties: the value seen first).
std::vector<Group> group_by_value(const std::vector<HostValue>& values) {
  std::vector<Group> groups;
  for (const auto& [host, value] : values) {
    const auto it =
        std::find_if(groups.begin(), groups.end(), [&](const Group& g) { return g.value == value; });
    if (it == groups.end())
      groups.push_back({value, {host}});
    else
      it->hosts.push_back(host);
  }
  std::stable_sort(groups.begin(), groups.end(),
                   [](const Group& a, const Group& b) { return a.hosts.size() > b.hosts.size(); });
  return groups;
}

// "NCCL version differs between hosts: NCCL 2.28.3 on node[01-03]; NCCL 2.27.5 on node04".
Finding mismatch(std::string_view code, Severity severity, std::string_view what_differs,
                 const std::vector<Group>& groups, std::string expected, std::string hint) {
  std::vector<std::string> parts;
  parts.reserve(groups.size());
  for (const auto& g : groups) parts.push_back(fmt::format("{} on {}", g.value, compress_hostlist(g.hosts)));
  return {std::string(code), severity,
          fmt::format("{} between hosts: {}", what_differs, fmt::join(parts, "; ")), std::move(expected),
          std::move(hint)};
}

std::string library_name(const std::vector<HostSection>& hosts) {
  for (const auto& h : hosts)
    if (!h.host.comm.name.empty()) return h.host.comm.name;
  return "NCCL";
}

// The version is an error: NCCL refuses ranks of different versions. The same version loaded from
// different files, info.
void compare_library(const std::vector<HostSection>& hosts, std::vector<Finding>& out) {
  const std::string lib = library_name(hosts);
  const auto versions = group_by_value(values_of(hosts, [](const HostSection& h) {
    const auto& c = h.host.comm;
    return c.version.empty() || c.name.empty() ? c.version : c.name + " " + c.version;
  }));
  if (versions.size() > 1) {
    out.push_back(mismatch("HOST_MISMATCH_NCCL", Severity::error, lib + " version differs", versions,
                           "the same " + lib + " version on every host",
                           fmt::format("{}: install the same {} on every host (one container image or "
                                       "module for the job): {}",
                                       kFixConfiguration, lib, kVersionsDisagree)));
    return;
  }
  const auto files = group_by_value(values_of(hosts, [](const HostSection& h) { return h.host.comm.path; }));
  if (files.size() > 1)
    out.push_back(mismatch("HOST_MISMATCH_NCCL", Severity::info, lib + " library file differs", files,
                           "the same " + lib + " library on every host",
                           "the same version from different files is usually the same code, but builds "
                           "differ (the CUDA they were built for, patches): load one build everywhere"));
}

// The leading number of "13.0"; -1 when there is none.
int major_of(const std::string& version) {
  int major = -1;
  for (const char c : version) {
    if (c < '0' || c > '9') break;
    major = (major < 0 ? 0 : major * 10) + (c - '0');
    if (major > 100000) break;
  }
  return major;
}

// A major that differs (or cannot be read) is another CUDA/ROCm generation: a warning. A minor alone
// is info: CUDA's minor-version compatibility runs one build across them, and fleets mid-rollout do.
void compare_versions(const std::vector<HostSection>& hosts, std::vector<Finding>& out) {
  constexpr std::array kVersions{std::pair{&HostInfo::driver, "driver version differs"},
                                 std::pair{&HostInfo::runtime, "runtime version differs"}};
  for (const auto& [member, what] : kVersions) {
    const auto groups =
        group_by_value(values_of(hosts, [m = member](const HostSection& h) { return h.host.*m; }));
    if (groups.size() < 2) continue;
    std::set<int> majors;
    for (const auto& g : groups) majors.insert(major_of(g.value));
    const bool major = majors.size() > 1 || majors.contains(-1);
    out.push_back(mismatch("HOST_MISMATCH_DRIVER", major ? Severity::warning : Severity::info, what, groups,
                           "the same driver and runtime on every host",
                           major
                               ? "install the same driver, and run the same build (one container image), on "
                                 "every host: a host of another major version runs another CUDA/ROCm "
                                 "generation, and NCCL's kernels and transports with it"
                               : "minor versions differ (a rollout in progress?): align them when you can, "
                                 "so that every host runs the code that was tested"));
  }
}

void compare_net_plugin(const std::vector<HostSection>& hosts, std::vector<Finding>& out) {
  const auto groups = group_by_value(values_of(
      hosts, [](const HostSection& h) { return h.net_plugin.empty() ? std::string("none") : h.net_plugin; }));
  if (groups.size() < 2) return;
  const bool presence =
      std::any_of(groups.begin(), groups.end(), [](const Group& g) { return g.value == "none"; });
  out.push_back(mismatch(
      "HOST_MISMATCH_NET_PLUGIN", presence ? Severity::warning : Severity::info, "NCCL NET plugin differs",
      groups, "the same NET plugin on every host",
      presence
          ? "install the same NET plugin on every host (or set NCCL_NET_PLUGIN=none for the whole job): a "
            "host without it uses NCCL's internal IB or socket transport while the others use the "
            "plugin's, and they may not connect"
          : "the hosts load different plugin files: check that they are the same plugin and version"));
}

std::string env_value(const HostSection& h, const std::string& name) {
  const auto it = h.env.find(name);
  if (it == h.env.end()) return "not set";
  return it->second.empty() ? "\"\"" : it->second;
}

// Where a variable is set: in the job, for every rank, not in one host's profile or image.
constexpr const char* kWhereToSet =
    "set NCCL_* in the job (mpirun -x, srun --export, the job script or the pod spec), not in one host's "
    "profile or image";

// One finding per variable; a host without it counts as "not set". A variable every rank must have
// alike (analyse/hosts/must_agree.hpp) is an error; any other only changes how one host moves its data.
void compare_env(const std::vector<HostSection>& hosts, std::vector<Finding>& out) {
  std::set<std::string> names;
  for (const auto& h : hosts)
    for (const auto& [name, value] : h.env)
      if (compared_across_hosts(name)) names.insert(name);
  for (const auto& name : names) {
    const auto groups =
        group_by_value(values_of(hosts, [&](const HostSection& h) { return env_value(h, name); }));
    if (groups.size() < 2) continue;
    const MustAgree* must = must_agree(name);
    out.push_back(mismatch(
        "HOST_MISMATCH_ENV", must != nullptr ? Severity::error : Severity::warning,
        fmt::format("{} differs", name), groups, fmt::format("{} the same on every host", name),
        must != nullptr
            ? fmt::format("{}: {}; every rank must have it alike: {}", kFixConfiguration, kWhereToSet,
                          must->why)
            : fmt::format("NCCL_* must be the same on every rank: {}; this one changes how the hosts that "
                          "have it move their data (their speed), not what the ranks agree on",
                          kWhereToSet)));
  }
}

// "8 x NVIDIA H200", "4 x NVIDIA H100 80GB HBM3 + 4 x NVIDIA H200"; "" when no GPU was listed.
void compare_gpus(const std::vector<HostSection>& hosts, std::vector<Finding>& out) {
  const auto groups =
      group_by_value(values_of(hosts, [](const HostSection& h) { return gpus_text(h.gpus); }));
  if (groups.size() < 2) return;
  out.push_back(mismatch("HOST_MISMATCH_GPUS", Severity::warning, "GPU count or model differs", groups,
                         "the same GPUs on every host",
                         "check the hosts with fewer or other GPUs (a GPU fallen off the bus or hidden by "
                         "CUDA_VISIBLE_DEVICES: nvidia-smi or rocm-smi there); a job runs at its slowest "
                         "host's pace, so schedule it on hosts of one kind"));
}

void compare_nics(const std::vector<HostSection>& hosts, std::vector<Finding>& out) {
  for (const bool rdma : {true, false}) {
    const auto groups =
        group_by_value(values_of(hosts, [rdma](const HostSection& h) { return ports_text(h, rdma); }));
    if (groups.size() < 2) continue;
    out.push_back(mismatch(
        "HOST_MISMATCH_NICS", rdma ? Severity::warning : Severity::info,
        rdma ? "up IB/RoCE ports differ" : "up Ethernet ports differ", groups,
        rdma ? "the same up IB/RoCE ports at the same rates on every host"
             : "the same up Ethernet ports on every host",
        rdma ? "a ring across hosts runs at its slowest host's network: check the hosts with fewer or slower "
               "ports (ibstat, mlxlink -d <dev> -p <port>; their NIC_* findings)"
             : "Ethernet ports often differ harmlessly (a management port); if NCCL's sockets or bootstrap "
               "use them, align them or name the interface with NCCL_SOCKET_IFNAME"));
  }
}

}  // namespace

std::string gpus_text(const std::vector<GpuInfo>& gpus) {
  std::vector<std::string> names;
  names.reserve(gpus.size());
  for (const auto& g : gpus) names.push_back(g.name);
  return counted_join(names);
}

std::string ports_text(const HostSection& h, bool rdma) {
  if (!h.host.config || !h.host.config->network.read) return "";
  static constexpr std::array<std::string_view, 3> kKinds{"IB", "RoCE", "Ethernet"};
  std::map<std::pair<std::size_t, double>, int> counts;  // (kind, -rate) -> ports
  for (const auto& p : h.host.config->network.ports) {
    if (!p.up || is_rdma_port(p) != rdma) continue;
    const auto kind =
        static_cast<std::size_t>(std::find(kKinds.begin(), kKinds.end(), p.kind) - kKinds.begin());
    ++counts[{kind, -p.rate_gbps}];
  }
  if (counts.empty()) return rdma ? "no up IB/RoCE port" : "no up Ethernet port";
  std::vector<std::string> parts;
  for (const auto& [key, n] : counts) {
    const double rate = -key.second;
    const std::string_view kind = key.first < kKinds.size() ? kKinds[key.first] : "other";
    parts.push_back(
        fmt::format("{} x {} {}", n, kind, rate > 0 ? fmt::format("{:g} Gb/s", rate) : "rate unknown"));
  }
  return fmt::format("{}", fmt::join(parts, " + "));
}

bool compared_across_hosts(std::string_view variable) {
  if (!variable.starts_with("NCCL_") && !variable.starts_with("RCCL_")) return false;
  return std::none_of(kHostSpecificEnv.begin(), kHostSpecificEnv.end(), [&](const HostSpecificEnv& e) {
    return e.name.ends_with('_') ? variable.starts_with(e.name) : variable == e.name;
  });
}

namespace {

// One job, one set of options: every host's first rank runs the command line rank 0 runs. A host that
// was given other flags (its own --nccl-lib, a forgotten --quick) measures or judges something else.
void compare_command(const std::vector<HostSection>& hosts, std::vector<Finding>& out) {
  const auto groups = group_by_value(values_of(hosts, [](const HostSection& h) {
    return h.command.empty() ? std::string() : fmt::format("`{}`", fmt::join(h.command, " "));
  }));
  if (groups.size() < 2) return;
  out.push_back(mismatch("HOST_MISMATCH_COMMAND", Severity::error, "the command line differs", groups,
                         "the same command line on every host",
                         fmt::format("{}: start every rank with the same arguments (one job, one set of "
                                     "options); each rank obeys its own, so the hosts would not run the same "
                                     "job",
                                     kFixConfiguration)));
}

}  // namespace

bool run_hung(const Result& r) {
  const auto hung = [](const std::string& failure) {
    return failure.find(kRanPastTimeout) != std::string::npos;
  };
  if (hung(r.failure)) return true;
  for (const auto& run : r.runs)
    if (hung(run.failure)) return true;
  return r.nodes && std::any_of(r.nodes->pairs.begin(), r.nodes->pairs.end(),
                                [&](const NodePair& p) { return hung(p.failure); });
}

std::vector<Finding> explain_hang(const Result& r, const std::vector<Finding>& compared) {
  if (!run_hung(r)) return {};
  std::vector<std::string> differences;
  for (const auto& f : compared)
    if (f.code == "HOST_MISMATCH_ENV") differences.push_back(f.evidence);
  if (differences.empty()) return {};
  return {
      {"HOST_MISMATCH_HANG", Severity::error,
       fmt::format("the job hung ({}) while its hosts differ in {} NCCL setting{}: {}; the likely cause is "
                   "that difference (NCCL makes its choices on each rank from that rank's own settings)",
                   r.failure.empty() ? std::string("a rank did not finish within --timeout") : r.failure,
                   differences.size(), differences.size() == 1 ? "" : "s", fmt::join(differences, "; ")),
       "hosts that agree on every NCCL_* and RCCL_* setting",
       fmt::format("{}: {}, then run again; the hosts themselves are not known to be at fault",
                   kFixConfiguration, kWhereToSet)}};
}

std::vector<Finding> compare_hosts(const std::vector<HostSection>& hosts) {
  std::vector<Finding> out;
  if (hosts.size() < 2) return out;
  compare_library(hosts, out);
  compare_command(hosts, out);
  compare_versions(hosts, out);
  compare_net_plugin(hosts, out);
  compare_env(hosts, out);
  compare_gpus(hosts, out);
  compare_nics(hosts, out);
  return out;
}

}  // namespace fb
