#pragma once
// What each measuring command asks of the engine, beyond one collective measurement: the
// command line binds into these (cli/), the engine's entry points take them (engine/).
#include <optional>
#include <string>
#include <vector>

#include "bench/node_detection.hpp"
#include "bench/node_sampling.hpp"
#include "bench/p2p_plan.hpp"
#include "model/expectation_rows.hpp"
#include "request/collective_request.hpp"

namespace fb {

// `fabricbench algos`: one collective's sweep, NCCL's choice against forced ones.
struct AlgosRequest {
  RunRequest measure;
  std::vector<std::string> algos;   // NCCL_ALGO values; "default" leaves it to NCCL
  std::vector<std::string> protos;  // NCCL_PROTO values; "default" likewise
  std::string keep_logs;            // directory to keep NCCL's debug logs in ("" = delete them)
};

// `fabricbench scale`: one collective at one size on growing groups of GPUs.
struct ScaleRequest {
  RunRequest measure;       // one collective, one size; the GPUs are chosen per group
  std::vector<int> counts;  // group sizes; empty: 1, 2, 4, ... up to every GPU
  bool best = true;         // groups on the strongest links
  bool worst = true;        // groups spread over sockets and switches
};

// `fabricbench nodes`: pairs of hosts of a job measured in rounds, the slow host named (docs/nodes.md).
enum class NodesModeChoice { automatic, round_robin, sampling };
struct NodesRequest {
  RunRequest measure;  // one collective at one size (sizes[0]), the settings of every pair
  NodesModeChoice mode = NodesModeChoice::automatic;  // automatic: round robin while it fits 5 min
  SamplingPlan sampling;
  double reference_gbps = 0;  // 0: from the pairs (the median, or the fastest of fewer than 10)
  double slow_share = 0;      // a pair is slow below this share of the reference; 0: from the pairs' spread
};

// `fabricbench p2p`: every pair and every host link.
struct P2pRequest {
  GpuSelection gpus;
  P2pPlan measure;       // every setting but gpus and cpulists, which come from the machine
  double margin = 0.10;  // flag figures this far below their class's median
};

// Default doctor budgets: quick aims at issue 12's healthy target (20 s on 2 x H200: the full
// quick grid took 24 s there, so the budget cuts the forced LL/LL128 points above 16 MiB first);
// slow fabrics are cut further. Thorough is a sweep of every size and protocol.
inline constexpr double kQuickBudgetS = 20;
inline constexpr double kThoroughBudgetS = 600;

// `fabricbench doctor`: the whole check; what it measures follows from quick or thorough.
// A Slurm prolog or health check (`doctor --prolog`): the host checks and one short verified
// all_reduce, within this budget on 8 GPUs by the estimate of docs/cli.md ("Slurm prolog").
inline constexpr double kPrologBudgetS = 5;
// Its one all_reduce: 1 GiB, where the built-in 8-GPU rows (and the 2-GPU ones) hold
// (docs/verdicts.md): a point is judged against what the machine should reach, never "no expectation".
inline constexpr std::uint64_t kPrologBytes = 1ULL << 30;

struct DoctorRequest {
  bool quick = false;
  bool prolog = false;   // the host checks and one short collective only
  bool passive = false;  // the host checks only: nothing measured (a periodic check on busy nodes)
  GpuSelection gpus;
  // nccl_lib, timeout_s and inject_corruption (the testing aid) apply to every stage; the
  // stages choose their own sizes, sampling and checks.
  RunSettings settings;
  // Seconds the whole doctor may take: later stages are estimated from the measured speed and
  // cut to fit (engine/pricing/doctor_budget.hpp). Not given: the mode's default.
  std::optional<double> budget_s;
  // A site's baseline (--expectations FILE, read by app/): the verdicts judge against its rows.
  std::optional<ExpectationSet> expectations;

  [[nodiscard]] double budget_or_default() const {
    return budget_s.value_or(prolog || passive ? kPrologBudgetS : quick ? kQuickBudgetS : kThoroughBudgetS);
  }
};

}  // namespace fb
