#pragma once
// The rounds of `fabricbench nodes` (engine/nodes_measurement): each round one plan whose groups are
// its pairs of hosts, run in the job's ranks at once; each pair's figure kept as it arrives, the
// round's wall time measured (the cost per round the time estimates use).
#include <string>
#include <vector>

#include "analyse/hosts/node_ranking.hpp"
#include "bench/node_schedule.hpp"
#include "core/events.hpp"
#include "engine/commands/nodes_measurement.hpp"
#include "engine/plans/plan_runner.hpp"

namespace fb {

class NodesRounds {
 public:
  NodesRounds(Plan plan, JobHosts hosts, EventSink& events)
      : plan_(std::move(plan)), hosts_(std::move(hosts)), events_(events) {}

  // The full round robin, ranked.
  NodeRanking run_round_robin(const NodesRequest& request, NodesInfo& info);
  // Sampled passes, ranked; the suspects re-tested against fresh peers and named only when the
  // re-test names them again, against the first ranking's reference (docs/nodes.md, "Sampling").
  NodeRanking run_sampling(const NodesRequest& request, NodesInfo& info);

  // The measured wall time of a round (kAssumedSecondsPerRound before the first).
  [[nodiscard]] double seconds_per_round() const;
  [[nodiscard]] int rounds_run() const { return rounds_run_; }
  // Why the rounds stopped early ("" when they did not), and the exit code that goes with it.
  [[nodiscard]] const std::string& failure() const { return failure_; }
  [[nodiscard]] ExitCode failure_code() const { return failure_code_; }
  // After a failed round the other ranks may wait in a collective: end the whole job.
  void end_job(EventSink& events) const { end_job_if_failed(plan_, last_, events); }

 private:
  // Runs `rounds` (numbered from `first`, of `total`); false when one failed or Ctrl-C came.
  bool run(const std::vector<PairRound>& rounds, int first, int total, std::vector<PairFigure>& figures,
           NodesInfo& info);
  bool run_one(const PairRound& round, int number, int total, std::vector<PairFigure>& figures,
               NodesInfo& info);
  void finish(const NodeRanking& ranking, NodesInfo& info) const;

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
