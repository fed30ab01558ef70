#pragma once
// The sweeps behind `fabricbench algos` (and doctor's algorithm check): NCCL's own choices from
// a short logged pass, then the default and every forced configuration in fresh workers.
#include <cstdint>
#include <string>
#include <vector>

#include "analyse/algo_selection.hpp"
#include "bench/plan.hpp"
#include "comm/nccl_log.hpp"
#include "core/result.hpp"

namespace fb {

struct AlgosSweep {
  std::vector<AlgoConfig> configs;  // [0] is NCCL's default, its points carrying NCCL's choice
  NcclLogSummary log;
  std::vector<Run> runs;  // one per configuration, kind "algos"
};

// `algos`/`protos` may contain "default" (left to NCCL). Throws when the default sweep fails;
// a forced configuration that fails is recorded in its AlgoConfig::failure.
AlgosSweep run_algos(const Plan& plan, const std::vector<std::string>& algos,
                     const std::vector<std::string>& protos, const std::string& keep_logs, bool quiet);

struct AlgosSweepOptions {
  std::string keep_logs;  // where NCCL's logs are kept ("": a temporary folder, removed)
  bool quiet = false;
  // Forced LL/LL128 run only the sizes up to this (0: every size): the doctor's cut on a slow fabric.
  std::uint64_t low_latency_max_bytes = 0;
};
AlgosSweep run_algos(const Plan& plan, const std::vector<std::string>& algos,
                     const std::vector<std::string>& protos, const AlgosSweepOptions& options);

}  // namespace fb
