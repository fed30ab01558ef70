#pragma once
// Which NCCL algorithm/protocol wins at each size, whether a forced choice beats NCCL's own
// beyond the measurement noise, and the winners as a tuner-plugin CSV (NCCL's example tuner,
// NCCL_TUNER_CONFIG_FILE: colltype,minbytes,maxbytes,algorithm,protocol,channels,nNodes,nRanks,
// numPipeOps,regBuff).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/result.hpp"

namespace fb {

// One configuration's sweep: NCCL's default (algo/proto empty) or a forced pair.
struct AlgoConfig {
  std::string algo;           // "Ring", "Tree"; empty: left to NCCL
  std::string proto;          // "LL", "LL128", "Simple"; empty: left to NCCL
  std::vector<Point> points;  // by size, in the same order for every configuration
  std::string failure;        // why the configuration could not run (unsupported, ...)
  [[nodiscard]] bool is_default() const { return algo.empty() && proto.empty(); }
  [[nodiscard]] std::string label() const;  // "default", "Ring/LL128", "Tree/*", "*/LL"
};

// One sweep's configurations (configs[0] is NCCL's default, its points carrying NCCL's own
// choice) and what the header names.
struct AlgosTable {
  std::string collective;
  std::string dtype;
  std::string op;
  int nranks = 0;
  std::vector<AlgoConfig> configs;
  std::vector<std::string> transports;  // NCCL's set-up from its log; empty: not in it
  std::optional<int> coll_channels;     // nullopt: not in NCCL's log
  std::optional<int> p2p_channels;
};

struct SizeWinner {
  std::uint64_t bytes = 0;
  std::size_t config = 0;  // index into the configurations
  double busbw_gbps = 0;
  // NCCL's own choice at this size ("RING"/"SIMPLE"), from its log; empty when unknown.
  std::string nccl_algo;
  std::string nccl_proto;
};

std::vector<SizeWinner> winners(const std::vector<AlgoConfig>& configs);

// A gain under this is a hint (info): pinning NCCL's choice for a few percent at one size risks
// losing more at sizes and scales not measured (docs/verdicts.md).
inline constexpr double kAlgoWarningGain = 0.10;

// ALGO_FORCED_FASTER: a forced pair beats the default by more than both medians' confidence
// intervals (and at least `min_gain`), at a size of at least `min_bytes`; a warning from
// kAlgoWarningGain, else info. A forced configuration equal to NCCL's own choice at that size
// (from the default's log) is never compared: it is the same configuration measured twice.
std::vector<Finding> forced_beats_default(const std::vector<AlgoConfig>& configs, double min_gain,
                                          std::uint64_t min_bytes);

// Ranges split at the geometric midpoints between measured sizes, from 0 to 2^64-1, adjacent
// equal choices merged: every size is covered exactly once. Throws Error(usage) for a
// collective the tuner plugin does not know.
std::string tuner_csv(const std::string& collective_name, int nranks, int nnodes,
                      const std::vector<SizeWinner>& w, const std::vector<AlgoConfig>& configs);

// ALGO_FORCED_FASTER over the document's algos runs: a forced configuration beating NCCL's choice.
std::vector<Finding> check_algorithms(const Result& r);

}  // namespace fb
