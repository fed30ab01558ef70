#pragma once
// What `project` measures on the local GPUs: the compute side of a projection (each GEMM of the
// layer at its shape, a large GEMM's rate and the HBM bandwidth, on GPU 0) and the validation
// of the model against a real tensor-parallel layer on GPUs 0 and 1.
#include <memory>
#include <string>
#include <vector>

#include "comm/nccl_library.hpp"
#include "projection/tp_projection.hpp"

namespace fb {

struct MeasuredCompute {
  ComputeRates rates;
  GemmTimes gemm_us;
};

// Times the layer's GEMMs of `m` for every TP in `tps` and every pass size in `tokens`, plus an
// 8192^3 GEMM (the rate) and a 1 GiB on-GPU copy (HBM), on GPU 0.
MeasuredCompute measure_compute(const ModelShape& m, const std::vector<int>& tps,
                                const std::vector<std::int64_t>& tokens);

struct ValidationRow {
  std::string phase;  // "decode" | "prefill"
  std::int64_t tokens = 0;
  int tp = 1;
  double projected_us = 0;  // the model: GEMMs alone + all_reduces alone, no overlap
  double measured_us = 0;   // the real layer in a CUDA graph
  double compute_us = 0;
  double comm_us = 0;
};

// The layer of `m` at TP=1 and TP=2 for decode batches 1, 8, 64 and a 2048-token prefill.
std::vector<ValidationRow> validate_tp_layer(const ModelShape& m, std::shared_ptr<const NcclLibrary> lib);

// Whether every row's projection is within `tolerance` (0.15: 15%) of its measurement.
bool validation_within(const std::vector<ValidationRow>& rows, double tolerance);

// Projected vs measured, one row per case, with the difference in %.
std::string validation_table(const std::vector<ValidationRow>& rows);

}  // namespace fb
