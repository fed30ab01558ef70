#include "engine/job/host_sections.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "comm/nccl_library.hpp"
#include "core/error.hpp"
#include "engine/machine/result_header.hpp"
#include "gpu/runtime.hpp"
#include "model/result_json.hpp"
#include "topo/host_probe.hpp"
#include "topo/machine_probe.hpp"
#include "topo/net_plugin_probe.hpp"

namespace fb {
namespace {

std::string section_text(const JobSession& job, const std::string& nccl_lib,
                         const std::vector<std::string>& command_line) {
  if (job.local_rank() != 0) return {};
  return nlohmann::json(describe_this_host(job, nccl_lib, command_line)).dump();
}

}  // namespace

HostSection describe_this_host(const JobSession& job, const std::string& nccl_lib,
                               const std::vector<std::string>& command_line) {
  HostSection s;
  s.name = job.host();
  // The arguments, not the binary's path: hosts may install it in different places.
  if (!command_line.empty()) s.command.assign(command_line.begin() + 1, command_line.end());
  for (int r = 0; r < job.size(); ++r)
    if (job.hosts()[static_cast<std::size_t>(r)] == s.name) s.ranks.push_back(r);
  std::shared_ptr<const NcclLibrary> lib;
  try {
    lib = NcclLibrary::load(nccl_lib);
  } catch (const Error&) {  // no NCCL on this host: its section says so (an empty version)
  }
  // A host without a usable GPU still describes itself (the preflight compares its versions and
  // settings before anything touches a GPU): its GPUs are then not listed, an unknown, not a difference.
  bool runtime = true;
  try {
    gpu::device_count();
  } catch (const Error&) {
    runtime = false;
  }
  Result header = make_result_header({}, lib.get(), runtime);
  s.host = header.host;
  s.env = header.env;
  TopologySources sources;
  sources.use_runtime = runtime;
  Topology topology = probe_topology(sources);
  std::vector<int> devices;
  devices.reserve(topology.gpus.size());
  for (const auto& g : topology.gpus) devices.push_back(g.index);
  if (runtime) add_gpus(header, devices);
  for (auto& g : header.gpus) g.host = s.name;
  s.gpus = header.gpus;
  s.host.config = probe_host("/", topology.gpus);
  s.net_plugin = find_net_plugin(s.env, net_plugin_prefix(s.host.comm.name));
  s.topology = std::move(topology);
  return s;
}

std::string describe_hosts_message(const std::string& nccl_lib) {
  return std::string(kJobDescribeHosts) + "\n" + nccl_lib;
}

std::optional<std::string> describe_hosts_request(const std::string& message) {
  const std::string head = std::string(kJobDescribeHosts) + "\n";
  if (!message.starts_with(head)) return std::nullopt;
  return message.substr(head.size());
}

std::vector<HostSection> gather_host_sections(JobSession& job, const std::string& nccl_lib,
                                              const std::vector<std::string>& command_line) {
  job.bootstrap().broadcast(describe_hosts_message(nccl_lib), 0);
  std::vector<HostSection> sections;
  for (const auto& text : job.bootstrap().allgather(section_text(job, nccl_lib, command_line)))
    if (!text.empty()) sections.push_back(nlohmann::json::parse(text).get<HostSection>());
  return sections;
}

void answer_describe_hosts(JobSession& job, const std::string& nccl_lib,
                           const std::vector<std::string>& command_line) {
  job.bootstrap().allgather(section_text(job, nccl_lib, command_line));
}

std::vector<GpuInfo> ranks_gpus(const std::vector<HostSection>& sections) {
  std::vector<GpuInfo> out;
  for (const auto& s : sections)
    for (std::size_t i = 0; i < s.ranks.size() && i < s.gpus.size(); ++i) {
      GpuInfo g = s.gpus[i];
      g.rank = s.ranks[i];
      out.push_back(g);
    }
  std::sort(out.begin(), out.end(), [](const GpuInfo& a, const GpuInfo& b) { return a.rank < b.rank; });
  return out;
}

}  // namespace fb
