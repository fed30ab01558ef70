#pragma once
// Lines up the same measurements of two result documents and tells real differences from
// noise: a change counts only beyond both sides' 95% intervals of the median; a drop larger
// than `threshold` at or above `min_bytes` is a regression.
#include <cstdint>
#include <string>
#include <vector>

#include "model/result.hpp"

namespace fb {

struct CompareRow {
  std::string key;  // what was measured: collective, type, op, placement, size ("1 GiB"), GPUs, forced
  std::uint64_t bytes = 0;
  double base = 0;  // busbw GB/s (p2p: its figure, GB/s or ns)
  double next = 0;
  double change = 0;    // relative, + is better (for ns, less is better)
  double noise = 0;     // relative bound within which a change is noise
  std::string verdict;  // "same", "better", "worse", "REGRESSION"
};

struct CompareReport {
  std::vector<CompareRow> rows;
  int only_in_base = 0;
  int only_in_next = 0;
  [[nodiscard]] bool regression() const;
  // "36 measurements compared: 1 REGRESSION, 3 worse, 2 better, 30 the same"
  [[nodiscard]] std::string headline() const;
  // The rows that regressed, by their keys.
  [[nodiscard]] std::vector<std::string> regressions() const;
};

// What makes two documents measurements of different things: another GPU model, GPU count, NCCL
// (or RCCL) major version or set of collectives, each named with both sides ("GPU model: NVIDIA H100
// 80GB HBM3 in the base, AMD Instinct MI300X in the new result"). Empty when they compare.
std::vector<std::string> comparability_differences(const Result& base, const Result& next);

// Throws Error(usage) when the documents share no measurement. Rows come in the order of what was
// measured, sizes in numeric order.
CompareReport compare_results(const Result& base, const Result& next, double threshold,
                              std::uint64_t min_bytes);

std::string compare_table(const CompareReport& r, bool markdown);

}  // namespace fb
