#pragma once
// From a model's shapes, the GPU's compute rates and measured all_reduce curves to time per
// layer, tokens/s, speedup and communication share per tensor-parallel degree
// (docs/projection.md has every formula and assumption).
#include <map>
#include <vector>

#include "model/projection.hpp"
#include "projection/allreduce_curve.hpp"
#include "projection/tp_layer.hpp"

namespace fb {

struct ProjectionRequest {
  ModelShape model;
  Workload workload;
  std::vector<int> tp{1, 2, 4, 8};  // TP=1 is always added: the baseline of speedup
  ComputeRates rates;
  GemmTimes gemm_us;     // measured per shape (GPU 0); shapes not in it take the roofline of `rates`
  bool overlap = false;  // communication hidden behind compute (max instead of sum)
  bool assume = false;   // a TP without its own curve uses the nearest one at the same busbw
  // Adding GPUs pays while a step from TP a to TP b gains at least this share of the ideal
  // b/a: speedup(b)/speedup(a) - 1 >= pays_share * (b/a - 1).
  double pays_share = 0.5;
};

// Checks the request (shapes, TP degrees against the model and the curves, rates) and
// projects both phases. Usage errors for anything it cannot project.
Projection project_tensor_parallel(const ProjectionRequest& request,
                                   const std::map<int, AllReduceCurve>& curves);

// One layer at `tp` for a pass of `tokens` tokens: its GEMMs, all_reduces and times (speedup,
// efficiency and tokens/s are left to the phase). The request is not checked here.
ProjectionRow project_layer(const ProjectionRequest& request, const std::map<int, AllReduceCurve>& curves,
                            int tp, std::int64_t tokens);

// Fills speedup, efficiency, best_tp and stops_paying_at_tp of a phase whose rows (ascending
// TP, the first TP=1) have their times.
void judge_scaling(ProjectionPhase& phase, double pays_share);

// The all_reduce time at `bytes` on `tp` GPUs: that count's own curve, or with `assume` the
// curve of the largest count measured, rescaled by the bus factor (equal busbw).
struct CommTime {
  AllReduceTime time;
  int curve_gpus = 0;
  bool assumed = false;
};
CommTime allreduce_time(const std::map<int, AllReduceCurve>& curves, int tp, std::uint64_t bytes,
                        bool assume);

}  // namespace fb
