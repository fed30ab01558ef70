#pragma once
// The gate a scheduler uses (docs/verdicts.md, "The gate"): which findings mean drain, which mean
// investigate, and which never gate, for the prolog (`doctor --prolog`: the host checks and one
// all_reduce) and for a periodic health check on busy nodes (`doctor --passive`: the host checks
// only). One row per finding code, as data; `doctor --fail-on` reads it.
#include <string>
#include <string_view>

#include "model/fail_on.hpp"
#include "model/result.hpp"

namespace fb {

// What a finding says about the node.
enum class FindingKind {
  node,    // the node (its GPUs, links, configuration, network): error -> drain, warning -> investigate
  job,     // a job's or the environment's configuration: never drain (fix the configuration instead)
  advice,  // a tuning suggestion or a limit of the judgement: never gates
};

// Which doctor stage raises a code: the prolog runs host and collectives, --passive host only.
enum class RaisedBy { host, collectives, pairs, scaling, algorithms, nodes, any };

struct GateRow {
  std::string_view code;
  FindingKind kind;
  RaisedBy by;
  std::string_view note;  // what its severities mean here, where more than its kind says
};

// The row of `code`; nullptr for a code the table does not hold (a newer build's).
const GateRow* gate_row(std::string_view code);

// Whether `f` fails the gate at `level`: every error; with FailOn::warning also a warning of a node
// finding (a code without a row counts as one). A job's configuration or advice never fails it.
bool fails_gate(const Finding& f, FailOn level);

// Whether the document fails the gate: its findings and each host section's.
bool fails_gate(const Result& r, FailOn level);

// The table as Markdown (docs/verdicts.md holds it between markers; a unit test compares).
std::string gate_policy_markdown();

inline constexpr const char* kGateTableBegin =
    "<!-- gate table: generated from src/analyse/verdict/gate_policy.cpp -->";
inline constexpr const char* kGateTableEnd = "<!-- end of the generated gate table -->";

}  // namespace fb
