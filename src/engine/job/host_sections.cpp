#include "engine/job/host_sections.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "comm/nccl_library.hpp"
#include "core/error.hpp"
#include "core/text.hpp"
#include "engine/machine/result_header.hpp"
#include "gpu/runtime.hpp"
#include "model/json_limits.hpp"
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

// Rank r's section as rank 0 takes it: parsed with its nesting bounded and every field checked, then
// made the section of r's own host: its name, its host's name, its ranks and its GPUs' host are the
// session's, and it brings no finding or verdict of its own (rank 0 judges).
HostSection section_from_rank(const JobSession& job, std::size_t r, const std::string& text) {
  const auto& host = job.hosts().at(r);
  HostSection s;
  try {
    const auto j = parse_input_json(text);
    check_json_limits(j);
    s = j.get<HostSection>();
  } catch (const std::exception& e) {  // the checks' Error(usage), nlohmann's type errors
    throw Error(ExitCode::run_failed, fmt::format("rank {} ({}) sent a host section that is not one: {}", r,
                                                  host, escape_control(e.what())));
  }
  s.name = host;
  s.host.hostname = host;
  s.ranks.clear();
  for (std::size_t k = 0; k < job.hosts().size(); ++k)
    if (job.hosts()[k] == host) s.ranks.push_back(static_cast<int>(k));
  for (auto& g : s.gpus) g.host = host;
  s.findings.clear();
  s.verdict.reset();
  return s;
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

std::string describe_hosts_message() { return kJobDescribeHosts; }

bool describe_hosts_request(const std::string& message) { return message == kJobDescribeHosts; }

std::vector<HostSection> gather_host_sections(JobSession& job, const std::string& nccl_lib,
                                              const std::vector<std::string>& command_line) {
  job.bootstrap().broadcast(describe_hosts_message(), 0);
  const auto all = job.bootstrap().allgather(section_text(job, nccl_lib, command_line));
  std::vector<HostSection> sections;
  std::set<std::string> described;
  for (std::size_t r = 0; r < all.size(); ++r) {
    const auto& host = job.hosts().at(r);
    // One section per host, from its first rank: another rank's is not its to give.
    if (all[r].empty() || job.local_ranks().at(r) != 0 || !described.insert(host).second) continue;
    sections.push_back(section_from_rank(job, r, all[r]));
  }
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
