#pragma once
// What a machine of a given kind should reach, as data (analyse/sku_table.cpp; each entry with
// its source and date), and each headline figure of a result held against it ("% of expected").
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/result.hpp"

namespace fb {

enum class ExpectationKind {
  typical,    // what healthy machines of this kind reach (a measurement or a published figure)
  acceptance  // a published pass line of a health check: below it the machine fails
};

struct SkuExpectation {
  std::string_view gpu;  // matched in the GPU's name ("H200", "MI300X")
  int gpus = 0;          // GPUs in the job the figure was measured on (0: any)
  // A collective's name (busbw), "pair" (copy-engine read), "host" (copy-engine h2d and d2h),
  // "h2d_sm" and "d2h_sm" (SM copies), "local_copy" (a copy within the GPU's memory), all in GB/s;
  // "host_latency" in ns (lower is better): figure_unit() says which.
  std::string_view figure;
  std::uint64_t min_bytes;  // collectives: the sizes the figure holds for
  std::uint64_t max_bytes;
  double value;
  ExpectationKind kind;
  std::string_view source;
  std::string_view date;
};

std::span<const SkuExpectation> sku_table();

// "ns" for latency figures (lower is better), else "GB/s".
std::string_view figure_unit(std::string_view figure);

struct Expected {
  double value = 0;  // in figure_unit()
  const SkuExpectation* entry = nullptr;
  [[nodiscard]] std::string source() const;  // "source, date (typical|acceptance threshold)"
};

// The expectation for `figure` on `gpu_name` with `gpus` GPUs at `bytes` (0 for p2p figures);
// nullopt when the table has none.
std::optional<Expected> expected_for(const std::string& gpu_name, int gpus, std::string_view figure,
                                     std::uint64_t bytes);

// The name of the GPUs a run used (the first one's; "" when the document does not say).
std::string gpu_name(const Result& r, const std::vector<int>& gpus);

// How far below an expectation a figure may fall before it is a finding: 10% (published
// machine-to-machine spread plus the tools' fidelity bar, docs/verdicts.md) for typical figures,
// none for acceptance thresholds, plus the figure's own measured interval.
double expectation_tolerance(const Expected& e, double relative_interval);

// One headline figure: what was measured, its path ceiling and its expectation.
struct HeadlineFigure {
  std::string figure;         // "all_reduce busbw at 1 GiB", "h2d GPU0"
  std::string unit = "GB/s";  // or "ns" (latency: lower is better)
  double measured = 0;
  double ceiling = 0;   // 0: no ceiling known
  double expected = 0;  // 0: no expectation known (collectives: analyse/expected_figure.hpp)
  std::string expected_source;
  bool of_one_gpu = false;  // a GPU on its own (host link, memory, latency), not a collective
  [[nodiscard]] std::string percent_text() const;  // "98% of expected" or "no expectation for ..."
};

// The largest size of every collective run, and every figure of each GPU on its own (its host
// link each way by copy engine and SM copy, its memory, its host latency).
std::vector<HeadlineFigure> headline_figures(const Result& r);

// The p2p test's figure name in the expectation table ("host", "h2d_sm", "local_copy",
// "host_latency"; "pair" for copy-engine reads between GPUs); "" when the table keys no figure on it.
std::string_view expectation_figure(P2pTest test);

}  // namespace fb
