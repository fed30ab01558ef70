#include "ingest/companion_check.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>

#include "ingest/paste_lines.hpp"

namespace fb {
namespace {

bool names_amd(const std::string& gpu) {
  return gpu.find("AMD") != std::string::npos || gpu.find("Radeon") != std::string::npos ||
         gpu.find("Instinct") != std::string::npos;
}

bool names_nvidia(const std::string& gpu) {
  return gpu.find("NVIDIA") != std::string::npos || gpu.find("Tesla") != std::string::npos ||
         gpu.find("GeForce") != std::string::npos || gpu.find("Quadro") != std::string::npos;
}

std::string short_host(const std::string& host) { return host.substr(0, host.find('.')); }

// The output's GPUs: the largest run's, or the GPUs it lists where it has no run (a failed run).
int output_ranks(const Result& r) {
  std::size_t n = 0;
  for (const auto& run : r.runs) n = std::max(n, run.gpus.size());
  return static_cast<int>(n > 0 ? n : r.gpus.size());
}

std::string library_conflict(const Result& r, const NcclLogSummary& log) {
  const bool amd =
      std::any_of(r.gpus.begin(), r.gpus.end(), [](const GpuInfo& g) { return names_amd(g.name); });
  const bool nvidia =
      std::any_of(r.gpus.begin(), r.gpus.end(), [](const GpuInfo& g) { return names_nvidia(g.name); });
  if (log.library == "RCCL" && nvidia) return "it is RCCL's log (AMD GPUs), the output ran on NVIDIA GPUs";
  if (log.library.empty() && !log.version.empty() && (amd || r.host.comm.name == "RCCL"))
    return fmt::format("it is NCCL {}'s log (NVIDIA GPUs), the output is {}'s run", log.version,
                       amd ? "AMD GPUs" : "RCCL");
  return "";
}

std::set<std::string> hosts_of_output(const Result& r) {
  std::set<std::string> hosts;
  for (const auto& g : r.gpus)
    if (!g.host.empty()) hosts.insert(short_host(g.host));
  return hosts;
}

std::string hosts_text(const std::set<std::string>& hosts) {
  return fmt::format("{} ({})", hosts.size() == 1 ? "host" : "hosts", fmt::join(hosts, ", "));
}

// The log's host names against those of the output's ranks: one in common at least, and no more of them.
std::string host_conflict(const std::set<std::string>& output_hosts, const NcclLogSummary& log) {
  if (log.hosts.empty() || output_hosts.empty()) return "";
  std::set<std::string> log_hosts;
  for (const auto& h : log.hosts) log_hosts.insert(short_host(h));
  const bool shared = std::any_of(log_hosts.begin(), log_hosts.end(),
                                  [&output_hosts](const std::string& h) { return output_hosts.contains(h); });
  if (shared && log_hosts.size() <= output_hosts.size()) return "";
  return fmt::format("its lines are of {}, the output's ranks ran on {}", hosts_text(log_hosts),
                     hosts_text(output_hosts));
}

std::string size_conflict(const Result& r, const NcclLogSummary& log) {
  const int ranks = output_ranks(r);
  if (log.nranks && ranks > 0 && *log.nranks != ranks)
    return fmt::format("its communicator has {} ranks, the output ran {}", *log.nranks, ranks);
  const auto output_hosts = hosts_of_output(r);
  if (log.nnodes && !output_hosts.empty() && *log.nnodes != static_cast<int>(output_hosts.size()))
    return fmt::format("its communicator spans {} hosts (nNodes {}), the output's ranks {}", *log.nnodes,
                       *log.nnodes,
                       output_hosts.size() == 1 ? "one host" : fmt::format("{} hosts", output_hosts.size()));
  return host_conflict(output_hosts, log);
}

}  // namespace

std::string nccl_log_conflict(const Result& output, const NcclLogSummary& log, const std::string& text) {
  // NCCL's lines as NCCL writes them ("host:pid:tid [dev] NCCL INFO ...", its version line), not a mention
  // of them in prose
  if (clean_paste(text).nccl_lines == 0)
    return "it is no NCCL log: not one line of NCCL's own (\"host:pid:tid [dev] NCCL INFO ...\" or \"NCCL "
           "version "
           "...\") in it";
  if (auto why = library_conflict(output, log); !why.empty()) return why;
  const auto& version = output.host.comm.version;
  if (!version.empty() && !log.version.empty() && version != log.version)
    return fmt::format("it is of {} {}, the output names {} {}", log.library.empty() ? "NCCL" : log.library,
                       log.version, output.host.comm.name, version);
  return size_conflict(output, log);
}

}  // namespace fb
