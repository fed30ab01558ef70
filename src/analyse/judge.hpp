#pragma once
// The one judge: every command's result goes through judge() before it is written or shown (doctor,
// run, algos, scale, p2p, nodes, topo, project, report, expectations). It runs every rule
// that serves the document's scope (analyse/rule_table.hpp), sorts the findings into the verdict
// contract (analyse/verdict/verdict_contract.hpp), says each passed check in a sentence, and judges
// each host section of a job as a host of that job. report/ only shows what the judge wrote.
#include <optional>
#include <string>
#include <vector>

#include "model/result.hpp"

namespace fb {

// The version of the rules, their thresholds and the expectation table, recorded with the findings
// they write (the document's `rules_version`). Change it with any of them: `report` shows a
// document's saved findings of another version apart from the ones it computes.
inline constexpr const char* kRulesVersion = "fabricbench.rules/2026-12-04";

// Pairs or host links slower than the median of their peers by more than this: the tolerance of
// analyse/expect/expectations.hpp (our pairs agree within 1%; quick samples spread up to 19%).
inline constexpr double kPeerMargin = 0.10;

struct JudgeOptions {
  double peer_margin = kPeerMargin;  // `p2p --margin`
  // `nodes`' ranking made while it measured (its re-tests included), instead of ranking the pairs again.
  std::optional<std::vector<Finding>> nodes_ranking;
};

// `r` judged: r.findings, r.verdict and r.rules_version; under a job, each host section's findings
// and verdict, and the hosts check folded into the job's verdict.
void judge(Result& r, const JudgeOptions& options = {});

// The findings every rule gives for `r` at its own scope, the most severe first (what judge() keeps).
std::vector<Finding> analyse_result(const Result& r);

// A host's verdict as its metrics and gate read it: its section's (judged as a host of its job), the
// findings about the whole job folded in; without a section, the findings about that host or about
// the whole job. The document's verdict where it has one host.
Verdict host_verdict(const Result& r, const std::string& host);
// The findings behind host_verdict().
std::vector<Finding> host_findings(const Result& r, const std::string& host);

}  // namespace fb
