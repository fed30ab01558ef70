#pragma once
// The sweeps behind `fabricbench algos` (and doctor's algorithm check): NCCL's own choices from
// a short logged pass, then the default and every forced configuration in fresh workers.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "analyse/run/algo_selection.hpp"
#include "bench/plan.hpp"
#include "comm/nccl_log.hpp"
#include "core/events.hpp"
#include "engine/plans/nccl_probe.hpp"
#include "model/result.hpp"

namespace fb {

// The forced (algorithm, protocol) pairs a sweep runs after NCCL's default ("default" leaves
// that half to NCCL). Crossed: every algorithm with every protocol. One axis at a time: each
// algorithm with NCCL's protocol and each protocol with NCCL's algorithm - 5 runs instead of
// 11 for Ring/Tree x LL/LL128/Simple, which is what the quick doctor can afford.
std::vector<std::pair<std::string, std::string>> forced_pairs(const std::vector<std::string>& algos,
                                                              const std::vector<std::string>& protos,
                                                              bool one_axis);

struct AlgosSweep {
  std::vector<AlgoConfig> configs;  // [0] is NCCL's default, its points carrying NCCL's choice
  NcclLogSummary log;
  std::vector<Run> runs;    // one per configuration begun, kind "algos"
  std::size_t planned = 0;  // configurations planned: more than configs.size() when interrupted
};

// `algos`/`protos` may contain "default" (left to NCCL). Throws when the default sweep fails;
// a forced configuration that fails is recorded in its AlgoConfig::failure. On Ctrl-C
// (core/interrupt.hpp) it returns what was begun, the last configuration's points cut short.
// Each configuration is announced to `events` (with where the sweep stands) unless quiet; the
// workers' warnings go there too.
AlgosSweep run_algos(const Plan& plan, const std::vector<std::string>& algos,
                     const std::vector<std::string>& protos, const std::string& keep_logs, bool quiet,
                     EventSink& events);

struct AlgosSweepOptions {
  std::string keep_logs;  // where NCCL's logs are kept ("": a temporary folder, removed)
  bool quiet = false;
  // Forced LL/LL128 run only the sizes up to this (0: every size): the doctor's cut on a slow fabric.
  std::uint64_t low_latency_max_bytes = 0;
  bool one_axis = false;  // forced_pairs: one axis at a time instead of crossed
};
AlgosSweep run_algos(const Plan& plan, const std::vector<std::string>& algos,
                     const std::vector<std::string>& protos, const AlgosSweepOptions& options,
                     EventSink& events);

// The second half of run_algos, for the doctor, which times its first set of workers (the probe,
// engine/plans/nccl_probe.hpp) before it plans the configurations.
AlgosSweep sweep_configurations(const Plan& plan, const std::vector<std::string>& algos,
                                const std::vector<std::string>& protos, const AlgosSweepOptions& options,
                                NcclLogSummary log, EventSink& events);

}  // namespace fb
