#pragma once
// `fabricbench nodes`' engine entry (docs/nodes.md): under mpirun, torchrun or srun, pairs of hosts
// measured in rounds where every host is busy (each pair its own communicator over both hosts'
// GPUs), the pairs ranked against a reference, the slow hosts named. app/ parses and renders.
#include <string>
#include <vector>

#include "bench/plan.hpp"
#include "core/events.hpp"
#include "engine/commands/command_outcome.hpp"
#include "engine/machine/machine_facts.hpp"
#include "request/command_requests.hpp"

namespace fb {

// The hosts of a job in the order their first rank appears, and each host's ranks.
struct JobHosts {
  std::vector<std::string> names;
  std::vector<std::vector<int>> ranks;
};
JobHosts job_hosts(const std::vector<std::string>& rank_hosts);

// The groups of ranks of one round: each pair's two hosts' ranks, first host first.
std::vector<std::vector<int>> round_groups(const JobHosts& hosts,
                                           const std::vector<std::pair<int, int>>& round);

// The plan every round runs: the request's one collective at one size, its points expanded for a
// pair's `pair_ranks` ranks (both hosts' GPUs); the groups are set per round. A size of less than an
// element per rank is a usage error.
Plan nodes_pair_plan(const NodesRequest& request, const MachineFacts& facts, int pair_ranks);

// Each round is announced to `events` with the time left; the document reaches `progress.begun`
// before the first round and `progress.ended` at the end (also after a failed round: the pairs
// measured are kept). Exit 1 when a host is named, 4 when a round failed.
CommandOutcome measure_nodes(const NodesRequest& request, const std::vector<std::string>& command_line,
                             const ResultProgress& progress, EventSink& events);

}  // namespace fb
