#include "engine/commands/nodes_measurement.hpp"

#include <fmt/format.h>

#include <map>

#include "analyse/hosts/host_consistency.hpp"
#include "analyse/hosts/node_ranking.hpp"
#include "analyse/judge.hpp"
#include "analyse/verdict/verdict_contract.hpp"
#include "bench/node_schedule.hpp"
#include "comm/job_session.hpp"
#include "core/environment.hpp"
#include "core/error.hpp"
#include "core/units.hpp"
#include "engine/commands/nodes_rounds.hpp"
#include "engine/job/job_preflight.hpp"
#include "engine/machine/machine_facts.hpp"
#include "engine/machine/result_header.hpp"
#include "engine/plans/plan_builder.hpp"
#include "engine/plans/plan_runner.hpp"

namespace fb {
namespace {

void check_hosts(const JobHosts& h, const JobSession& job) {
  if (h.names.size() < 2)
    FB_USAGE_ERROR(
        fmt::format("nodes measures pairs of hosts: this {} job has its {} rank(s) on one host ({}); "
                    "start it on 2 hosts or more, or use `fabricbench doctor` on one host",
                    job.launcher_command(), job.size(), h.names.at(0)));
  for (std::size_t i = 1; i < h.names.size(); ++i)
    if (h.ranks[i].size() != h.ranks[0].size())
      FB_USAGE_ERROR(
          fmt::format("nodes needs the same number of ranks (one per GPU) on every host: {} has {}, "
                      "{} has {}",
                      h.names[0], h.ranks[0].size(), h.names[i], h.ranks[i].size()));
}

const char* mode_name(NodesMode mode) { return mode == NodesMode::sampling ? "sampling" : "round robin"; }

NodesMode chosen_mode(const NodesRequest& r, int hosts) {
  if (r.mode == NodesModeChoice::round_robin) return NodesMode::round_robin;
  if (r.mode == NodesModeChoice::sampling) return NodesMode::sampling;
  return nodes_time(hosts, kAssumedSecondsPerRound, r.sampling).mode;
}

// What the default mode costs at `seconds_per_round` for 16, 128 and 1024 hosts.
std::string time_words(const NodesRequest& r, double seconds_per_round) {
  std::string out;
  for (const int n : {16, 128, 1024}) {
    const auto t = nodes_time(n, seconds_per_round, r.sampling);
    out += fmt::format("{}{} hosts {} ({} rounds{})", out.empty() ? "" : ", ", n, format_seconds(t.seconds),
                       t.rounds, t.mode == NodesMode::sampling ? ", sampling" : "");
  }
  return out;
}

// Before the first round: the rounds and pairs, and the time at the assumed cost of a round.
void announce(const NodesRequest& r, NodesMode mode, const JobHosts& hosts, EventSink& events) {
  const int n = static_cast<int>(hosts.names.size());
  const int rounds =
      mode == NodesMode::sampling ? sampling_round_count(r.sampling) : round_robin_round_count(n);
  events.emit(make_event(
      EventKind::stage,
      fmt::format(
          "nodes: {} hosts x {} rank(s), {}: {} rounds of {} pairs, about {} at {:.1f} s a round (assumed "
          "until a round is measured; a host that looks slow adds its re-pairs' rounds); at that cost {}",
          n, hosts.ranks[0].size(), mode_name(mode), rounds, n / 2,
          format_seconds(rounds * kAssumedSecondsPerRound), kAssumedSecondsPerRound,
          time_words(r, kAssumedSecondsPerRound))));
}

Result nodes_header(const std::vector<std::string>& command_line, const NcclLibrary& lib, const Plan& plan,
                    const JobSession& job) {
  Result result = make_result_header(command_line, &lib);
  add_gpus(result, plan.gpus);
  for (auto& g : result.gpus) g.host = job.hosts().at(static_cast<std::size_t>(g.rank));
  return result;
}

}  // namespace

// The plan every round runs: the request's one collective at one size, its points expanded for a
// pair's ranks (both hosts' GPUs), the groups set per round.
Plan nodes_pair_plan(const NodesRequest& request, const MachineFacts& facts, int pair_ranks) {
  Plan plan = build_plan(request.measure, facts);
  for (auto& run : plan.runs)
    run.points = expand_points(run, request.measure.sizes, plan.settings.placements, pair_ranks);
  if (plan.runs.empty() || plan.runs[0].points.empty())
    FB_USAGE_ERROR(fmt::format("{} at {} is less than one element per rank of a pair: give a larger --size",
                               request.measure.collectives.at(0), format_bytes(request.measure.sizes.at(0))));
  return plan;
}

JobHosts job_hosts(const std::vector<std::string>& rank_hosts) {
  JobHosts h;
  std::map<std::string, std::size_t> index;
  for (std::size_t r = 0; r < rank_hosts.size(); ++r) {
    const auto [it, added] = index.emplace(rank_hosts[r], h.names.size());
    if (added) {
      h.names.push_back(rank_hosts[r]);
      h.ranks.emplace_back();
    }
    h.ranks[it->second].push_back(static_cast<int>(r));
  }
  return h;
}

std::vector<std::vector<int>> round_groups(const JobHosts& hosts,
                                           const std::vector<std::pair<int, int>>& round) {
  std::vector<std::vector<int>> groups;
  for (const auto& [a, b] : round) {
    auto g = hosts.ranks.at(static_cast<std::size_t>(a));
    const auto& other = hosts.ranks.at(static_cast<std::size_t>(b));
    g.insert(g.end(), other.begin(), other.end());
    groups.push_back(std::move(g));
  }
  return groups;
}

CommandOutcome measure_nodes(const NodesRequest& request, const std::vector<std::string>& command_line,
                             const ResultProgress& progress, EventSink& events) {
  const JobSession* job = JobSession::current();
  if (job == nullptr)
    FB_USAGE_ERROR(
        "nodes measures pairs of hosts: start it with one rank per GPU on every host under mpirun, torchrun "
        "or srun (docs/nodes.md has examples)");
  const JobHosts hosts = job_hosts(job->hosts());
  check_hosts(hosts, *job);
  auto sections =
      require_agreeing_hosts(request.measure.settings, events, command_line);  // before any GPU is touched
  const OpenedMachine machine = open_machine(request.measure.settings.nccl_lib);
  const int per_host = static_cast<int>(hosts.ranks[0].size());
  Plan plan = nodes_pair_plan(request, machine.facts, 2 * per_host);
  Result result = nodes_header(command_line, *machine.lib, plan, *job);
  result.hosts = std::move(sections);  // every host's facts: its NICs, versions and settings
  const int n = static_cast<int>(hosts.names.size());
  NodesRounds rounds(plan, hosts, events);
  const NodesMode mode = chosen_mode(request, n);
  auto& info = result.nodes.emplace();
  info.mode = mode_name(mode);
  info.collective = plan.runs[0].collective;
  info.bytes = plan.runs[0].points[0].bytes;
  progress.begun(result);
  announce(request, mode, hosts, events);
  const auto outcome = rounds.run_search(mode, request, info);
  info.seconds_per_round = rounds.seconds_per_round();
  events.emit(
      make_event(EventKind::stage,
                 fmt::format("nodes: {} round(s) at {:.1f} s a round; at that cost: {}", rounds.rounds_run(),
                             rounds.seconds_per_round(), time_words(request, rounds.seconds_per_round()))));
  result.finished = now_iso8601();
  result.status = rounds.failure().empty() ? RunStatus::complete : RunStatus::failed;
  result.failure = rounds.failure();
  JudgeOptions judging;
  judging.nodes_ranking = outcome.ranking.findings;  // the ranking with its re-pairs, as measured
  judge(result, judging);
  progress.ended(result);
  if (!rounds.failure().empty()) {
    rounds.end_job(events);
    return {std::move(result), rounds.failure_code()};
  }
  const ExitCode code = has_error_finding(result.findings) ? ExitCode::finding : ExitCode::ok;
  return {std::move(result), code};
}

}  // namespace fb
