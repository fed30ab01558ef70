#pragma once
// What a machine of a given kind should reach, as rows (analyse/expect/sku_table.cpp; each with its source
// and date, or a site's own from `--expectations FILE`), and each headline figure of a result held
// against the row of what ran: GPU model, GPU count, hosts, figure, size and NCCL's algorithm.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/result.hpp"

namespace fb {

// Tolerance below a typical figure (docs/verdicts.md, "Thresholds"): the published spread
// between healthy machines of one kind (8 x H100 ring 360-370, 8 x MI300X 310-330: up to +-3%),
// the fidelity bar between tools (3%) and our run-to-run spread (1 GiB all_reduce 328.0-333.5
// GB/s over four runs: +-1%), about 7%, rounded up. Also below a figure computed from the NICs.
inline constexpr double kTypicalTolerance = 0.10;

// The built-in rows, in the order they are tried (docs/verdicts.md prints them).
std::span<const ExpectationRow> builtin_expectations();

// "ns" for latency figures (lower is better), else "GB/s".
std::string_view figure_unit(std::string_view figure);

// An algorithm's name as NCCL's logs and variables spell it, upper-cased without '_': "NVLSTree",
// "NVLS_TREE" -> "NVLSTREE".
std::string canonical_algo(std::string_view algo);

struct ExpectationQuery {
  std::string gpu_name;  // as the document names the GPU; matched by its model key
  int gpus = 0;
  int hosts = 1;
  std::string figure;
  std::uint64_t bytes = 0;
  std::string algo;  // what ran ("" unknown: only rows for any algorithm hold)
};

struct Expected {
  double value = 0;  // in figure_unit()
  ExpectationRow row;
  [[nodiscard]] std::string source() const;  // "source, date[, a pass line][, a single public report]"
};

// The rows that judge `r`: a site's rows (r.expectations) replace the built-in rows of each GPU
// model and figure they name (all its GPU counts, hosts, sizes and algorithms).
std::vector<ExpectationRow> expectation_rows(const Result& r);

// The first row for the query; nullopt when none holds (never a neighbouring model's or algorithm's).
std::optional<Expected> expected_for(const Result& r, const ExpectationQuery& q);
// The published drain/replace line (an acceptance row: below it the publisher's check fails the machine)
// that holds for the query, whether or not it is the row expected_for() gives; nullopt when none.
std::optional<Expected> gate_for(const Result& r, const ExpectationQuery& q);
// The built-in rows for one host and any algorithm (the p2p figures, tests).
std::optional<Expected> expected_for(const std::string& gpu_name, int gpus, std::string_view figure,
                                     std::uint64_t bytes);
// Whether any row for the query's GPU, count, hosts and figure (any size) names `algo`.
bool has_row_for_algo(const Result& r, const ExpectationQuery& q, std::string_view algo);

// How far below an expectation a figure may fall before it is a finding: the row's own tolerance
// (a site file's), else 10% (published machine-to-machine spread plus the tools' fidelity bar,
// docs/verdicts.md) for typical figures and none for acceptance lines; plus the figure's own
// measured interval.
double expectation_tolerance(const Expected& e, double relative_interval);

// Below this share of its expectation a figure is far below what the machine should reach: 40% gone
// is four times the tolerance (kTypicalTolerance), where healthy machines of one kind spread +-3% and
// our runs +-1%, so no spread explains it (a link down, a fallback transport, a throttled GPU, a NIC
// down on the weakest host): BUSBW_BELOW_EXPECTED is an error there (action drain), a warning above,
// unless a published drain/replace line (gate_for) holds, which is an error below it wherever it sits.
// Issue 45's nccl-tests output cut to 55% is an error; issue 42's network at 65% a warning.
inline constexpr double kFarBelowExpected = 0.6;

// The p2p test's figure name in the expectation table ("host", "h2d_sm", "local_copy",
// "host_latency"; "pair" for copy-engine reads between GPUs); "" when the table keys no figure on it.
std::string_view expectation_figure(P2pTest test);

}  // namespace fb
