#pragma once
// From a model's shapes, the GPU's compute rates and measured all_reduce curves to time per
// layer, tokens/s, speedup and communication share per tensor-parallel degree
// (docs/projection.md has every formula and assumption).
#include <map>
#include <vector>

#include "model/projection.hpp"
#include "projection/allreduce_curve.hpp"
#include "projection/comm_time.hpp"
#include "projection/tp_layer.hpp"

namespace fb {

struct ProjectionRequest {
  ModelShape model;
  Workload workload;
  std::vector<int> tp{1, 2, 4, 8};  // TP=1 is always added: the baseline of speedup
  ComputeRates rates;
  GemmTimes gemm_us;     // measured per shape (GPU 0); shapes not in it take the roofline of `rates`
  bool overlap = false;  // communication hidden behind compute (max instead of sum)
  bool assume = false;   // a TP without its own curve is held to its bound (comm_time.hpp)
  // Adding GPUs pays while a step from TP a to TP b gains at least this share of the ideal
  // b/a: speedup(b)/speedup(a) - 1 >= pays_share * (b/a - 1).
  double pays_share = 0.5;
};

// What the document gives the projection: its curves, and the bounds of the GPU counts without one.
struct CommInputs {
  std::map<int, AllReduceCurve> curves;
  CommBounds bounds;
};

// Checks the request (shapes, TP degrees against the model and the curves, rates) and
// projects both phases. Usage errors for anything it cannot project.
Projection project_tensor_parallel(const ProjectionRequest& request, const CommInputs& comm);

// One layer at `tp` for a pass of `tokens` tokens: its GEMMs, all_reduces and times (speedup,
// efficiency and tokens/s are left to the phase). The request is not checked here.
ProjectionRow project_layer(const ProjectionRequest& request, const CommInputs& comm, int tp,
                            std::int64_t tokens);

// The TP degrees of a request, TP=1 added, ascending, each once.
std::vector<int> projected_degrees(const ProjectionRequest& request);

}  // namespace fb
