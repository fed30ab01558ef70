#include "analyse/expect/net_used.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>

#include "analyse/scope/gpu_names.hpp"
#include "comm/hostlist.hpp"
#include "core/text.hpp"

namespace fb {
namespace {

std::string setting(const Result& r, const Run& run, const std::string& name) {
  if (const auto it = run.forced.find(name); it != run.forced.end()) return it->second;
  const auto it = r.env.find(name);
  return it == r.env.end() ? "" : it->second;
}

// NCCL's set-up is one per job: the run's own record, else another run's.
const std::vector<std::string>& transports_of(const Result& r, const Run& run) {
  if (!run.nccl_transports.empty()) return run.nccl_transports;
  for (const auto& other : r.runs)
    if (!other.nccl_transports.empty()) return other.nccl_transports;
  return run.nccl_transports;
}

std::string network_name(const Result& r, const Run& run) {
  if (!run.nccl_network.empty()) return run.nccl_network;
  for (const auto& other : r.runs)
    if (!other.nccl_network.empty()) return other.nccl_network;
  return "";
}

std::optional<NetworkUsed> from_log(const Result& r, const Run& run) {
  if (const auto name = network_name(r, run); !name.empty()) {
    const std::string said = "NCCL's log: \"Using network " + name + "\"";
    if (name.starts_with("Socket")) return NetworkUsed{NetPath::sockets, said};
    if (name.starts_with("IB")) return NetworkUsed{NetPath::ib, said};
    return NetworkUsed{NetPath::plugin, said + " (a NET plugin)"};
  }
  const auto& transports = transports_of(r, run);
  if (transports.empty()) return std::nullopt;
  std::set<std::string> socket, ib, other;
  for (const auto& t : transports) {
    if (!t.starts_with("NET/")) continue;
    (t.starts_with("NET/Socket") ? socket : t.starts_with("NET/IB") ? ib : other).insert(t);
  }
  const auto log = [](const std::set<std::string>& s) {
    return fmt::format("NCCL's log: {}", fmt::join(s, ", "));
  };
  if (!socket.empty()) return NetworkUsed{NetPath::sockets, log(socket)};
  if (!ib.empty()) return NetworkUsed{NetPath::ib, log(ib)};
  if (!other.empty()) return NetworkUsed{NetPath::plugin, log(other) + " (a NET plugin)"};
  return NetworkUsed{NetPath::not_network,
                     fmt::format("NCCL's transports name no network ({}): the hosts are joined otherwise",
                                 fmt::join(transports, ", "))};
}

// NVIDIA's IB plugin (nccl-rdma-sharp-plugins, in HPC-X) drives the same IB/RoCE ports.
bool ib_plugin(const std::string& path) { return lower(path).find("sharp") != std::string::npos; }

std::optional<NetworkUsed> from_facts(const Result& r, const std::vector<std::string>& hosts) {
  std::vector<std::string> plugin_hosts, read, rdma;
  std::string plugin;
  for (const auto& h : hosts) {
    for (const auto& s : r.hosts)
      if (s.name == h && !s.net_plugin.empty() && !ib_plugin(s.net_plugin)) {
        plugin_hosts.push_back(h);
        plugin = s.net_plugin;
      }
    bool assumed = false;
    const auto* net = host_network(r, h, assumed);
    if (net == nullptr) continue;
    read.push_back(h);
    if (std::any_of(net->ports.begin(), net->ports.end(),
                    [](const NicPort& p) { return is_rdma_port(p) && p.up; }))
      rdma.push_back(h);
  }
  if (!plugin_hosts.empty())
    return NetworkUsed{NetPath::plugin, fmt::format("a NET plugin on {} ({}), NCCL's log not read",
                                                    compress_hostlist(plugin_hosts), plugin)};
  if (!rdma.empty())
    return NetworkUsed{NetPath::ib,
                       "assumed: NCCL's IB transport over the hosts' up IB/RoCE ports (NCCL's log not read)"};
  if (!read.empty())
    return NetworkUsed{NetPath::sockets, fmt::format("no up IB/RoCE port on {}: NCCL uses TCP sockets",
                                                     compress_hostlist(read))};
  return std::nullopt;
}

}  // namespace

const NetworkFacts* host_network(const Result& r, const std::string& host, bool& assumed) {
  assumed = false;
  for (const auto& s : r.hosts)
    if (s.name == host)
      return s.host.config && s.host.config->network.read ? &s.host.config->network : nullptr;
  if (!r.hosts.empty() || !r.host.config || !r.host.config->network.read) return nullptr;
  assumed = host != r.host.hostname;
  return &r.host.config->network;
}

NetworkUsed network_used(const Result& r, const Run& run) {
  if (setting(r, run, "NCCL_IB_DISABLE") == "1") return {NetPath::sockets, "NCCL_IB_DISABLE=1"};
  if (lower(setting(r, run, "NCCL_NET")) == "socket") return {NetPath::sockets, "NCCL_NET=Socket"};
  if (auto used = from_log(r, run)) return *used;
  if (auto used = from_facts(r, result_host_names(r))) return *used;
  return {NetPath::unknown, "NCCL's log was not read and the hosts' network ports are not in the document"};
}

}  // namespace fb
