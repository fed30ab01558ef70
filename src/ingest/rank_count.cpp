#include "ingest/rank_count.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace fb {
namespace {

bool one_pid(const ToolRun& run) {
  std::set<std::pair<std::string, int>> processes;
  for (const auto& d : run.devices) processes.insert({d.host, d.pid});
  return processes.size() == 1 && run.devices.front().pid > 0;
}

struct Processes {
  int n = 0;  // 0: unknown
  std::string from;
};

// The processes that ran the test: rccl-tests' own count, the pasted launcher's, or one where nothing
// launched it but the shell (the pasted command names the test and no launcher) or every listed rank
// has one pid.
Processes processes_of(const ToolRun& run, const CommandFacts& c) {
  if (run.processes > 0) return {run.processes, fmt::format("the header's nRanks {}", run.processes)};
  if (c.processes) return {*c.processes, fmt::format("the command line's {} processes", *c.processes)};
  if (c.test_line > 0 && !c.launcher) return {1, "one process (no launcher on the command line)"};
  if (!run.devices.empty() && one_pid(run)) return {1, "one process (every listed rank has the same pid)"};
  return {};
}

int listed_extent(const ToolRun& run) {
  int top = 0;
  for (const auto& d : run.devices) top = std::max(top, d.rank + 1);
  return std::max(top, static_cast<int>(run.devices.size()));
}

std::string plural(int n, const char* one, const char* many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

}  // namespace

RankCount count_ranks(const ToolRun& run, const CommandFacts& command) {
  const int listed = static_cast<int>(run.devices.size());
  const int extent = listed_extent(run);
  const auto procs = processes_of(run, command);
  RankCount out{std::max(listed, run.ranks), ""};
  if (extent > out.ranks) {
    out = {extent, fmt::format("{} GPUs: the \"# Rank\" lines go up to rank {}", extent, extent - 1)};
  }
  std::optional<int> header;
  std::string why;
  if (run.threads > 0 && run.gpus_per_thread > 0 && procs.n > 0) {
    header = run.threads * run.gpus_per_thread * procs.n;
    why =
        fmt::format("the header's nThread {} x nGpus {} x {}", run.threads, run.gpus_per_thread, procs.from);
  } else if (run.threads == 0 && command.test_line > 0 && procs.n > 0) {
    const int gpus = command.gpus_per_process.value_or(1);
    const int threads = command.threads_per_process.value_or(1);
    header = gpus * threads * procs.n;
    why = fmt::format("the command line (line {}): -g {} x -t {} x {}", command.test_line, gpus, threads,
                      procs.from);
  }
  if (header && *header > out.ranks) {
    out.ranks = *header;
    out.note = listed > 0
                   ? fmt::format("{} GPUs from {}; the paste lists {}: the others were left out of it",
                                 *header, why, plural(listed, "\"# Rank\" line", "\"# Rank\" lines"))
                   : fmt::format("{} GPUs from {} (the output lists no \"# Rank\" line)", *header, why);
  }
  return out;
}

std::vector<ToolDevice> devices_of_ranks(const ToolRun& run, int ranks, const std::string& name,
                                         std::vector<std::string>& notes) {
  std::map<int, ToolDevice> listed;
  for (const auto& d : run.devices) listed.emplace(d.rank, d);
  std::set<std::string> names, hosts;
  for (const auto& [rank, d] : listed) {
    names.insert(d.name);
    hosts.insert(d.host);
  }
  const bool single_process = one_pid(run) || (run.processes == 1);
  std::vector<ToolDevice> out;
  std::vector<int> filled;
  for (int rank = 0; rank < ranks; ++rank) {
    if (const auto it = listed.find(rank); it != listed.end()) {
      out.push_back(it->second);
      continue;
    }
    ToolDevice d;
    d.rank = d.device = rank;
    d.name = names.size() == 1 ? *names.begin() : name;
    if (single_process && hosts.size() == 1) d.host = *hosts.begin();
    if (!listed.empty()) filled.push_back(rank);
    out.push_back(d);
  }
  if (!filled.empty())
    notes.push_back(fmt::format(
        "{} not in the paste: {}{}",
        filled.size() == 1 ? fmt::format("rank {}", filled.front())
                           : fmt::format("ranks {}-{}", filled.front(), filled.back()),
        names.size() == 1 ? fmt::format("taken as the listed ranks' GPU ({})", *names.begin())
                          : std::string("their GPU unknown"),
        single_process && hosts.size() == 1 ? fmt::format(" on {} (one process: one host)", *hosts.begin())
                                            : std::string(", their host unknown")));
  return out;
}

}  // namespace fb
