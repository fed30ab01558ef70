#pragma once
// The rounds of `fabricbench nodes` and the doctor's nodes stage: each round one plan whose groups are
// its pairs of hosts, run in the job's ranks at once; each pair's figure kept as it arrives, the
// round's wall time measured (the cost per round the time estimates use). Which pairs come next is the
// slow-host search's (analyse/hosts/slow_host_search: the round robin, or a first pass and re-pairs).
#include <functional>
#include <string>
#include <vector>

#include "analyse/hosts/slow_host_search.hpp"
#include "bench/node_detection.hpp"
#include "core/events.hpp"
#include "engine/commands/nodes_measurement.hpp"
#include "engine/plans/plan_runner.hpp"

namespace fb {

// Before each round but the first: whether another one fits, given the rounds run and their measured
// cost (the doctor's budget; `nodes` has none). The first round always runs: every host in one pair.
using RoundGate = std::function<bool(int rounds_run, double seconds_per_round)>;

class NodesRounds {
 public:
  NodesRounds(Plan plan, JobHosts hosts, EventSink& events)
      : plan_(std::move(plan)), hosts_(std::move(hosts)), events_(events) {}

  // The round robin or the search over the job's hosts, ranked (a pair slow below the request's share
  // of the reference, or from the pairs' spread); the pairs, the ranking and how each host was measured
  // go into `info`.
  SearchOutcome run_search(NodesMode mode, const NodesRequest& request, NodesInfo& info,
                           const RoundGate& gate = {});

  // The measured wall time of a round (kAssumedSecondsPerRound before the first).
  [[nodiscard]] double seconds_per_round() const;
  [[nodiscard]] int rounds_run() const { return rounds_run_; }
  // Why the rounds stopped early ("" when they did not), and the exit code that goes with it.
  [[nodiscard]] const std::string& failure() const { return failure_; }
  [[nodiscard]] ExitCode failure_code() const { return failure_code_; }
  // After a failed round the other ranks may wait in a collective: end the whole job.
  void end_job(EventSink& events) const { end_job_if_failed(plan_, last_, events); }

 private:
  // Runs `rounds` (numbered from `first`, of `total`); false when one failed, Ctrl-C came or the gate
  // closed.
  bool run(const std::vector<PairRound>& rounds, int first, int total, std::vector<PairFigure>& figures,
           NodesInfo& info, const RoundGate& gate);
  bool run_one(const PairRound& round, int number, int total, std::vector<PairFigure>& figures,
               NodesInfo& info);
  void finish(const SearchOutcome& outcome, NodesInfo& info) const;

  Plan plan_;
  JobHosts hosts_;
  EventSink& events_;
  double spent_s_ = 0;
  int rounds_run_ = 0;
  PlanOutcome last_;
  std::string failure_;
  ExitCode failure_code_ = ExitCode::ok;
};

}  // namespace fb
