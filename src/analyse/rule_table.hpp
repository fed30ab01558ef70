#pragma once
// Every rule the judge runs, as rows: what each raises, which results and scopes it serves, and the
// function that judges. The order is the order findings are listed in within a severity (the cause
// before its effects). docs/verdicts.md lists every rule, what it reads and its threshold.
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/result.hpp"

namespace fb {

// What a document is judged as: one host's run, a job across hosts (its cluster), or one host's
// section of such a job.
enum class JudgeScope { run, cluster, host_of_job };

struct JudgeContext {
  JudgeScope scope = JudgeScope::run;
  std::size_t job_gpus = 0;   // host_of_job: the job's GPUs
  std::size_t job_hosts = 1;  // host_of_job: the job's hosts
  double peer_margin = 0.10;  // pairs slower than their peers' median by more than this
  // `nodes` ranks its pairs while it measures (its re-tests included): that ranking instead of the
  // recorded pairs ranked again.
  const std::vector<Finding>* nodes_ranking = nullptr;
};

struct RuleRow {
  std::string_view name;
  std::string_view codes;   // what it raises (prefixes ending in '_' or whole codes)
  std::string_view serves;  // the results it judges, in words (docs/verdicts.md)
  bool (*applies)(const Result&, const JudgeContext&);
  std::vector<Finding> (*judge)(const Result&, const JudgeContext&);
};

std::span<const RuleRow> rule_rows();

// Every row that applies, in order; the most severe findings first (a stable sort).
std::vector<Finding> run_rules(const Result& r, const JudgeContext& c);

// The rows as Markdown (docs/verdicts.md holds them between markers; a unit test compares).
std::string rule_table_markdown();

inline constexpr const char* kRuleTableBegin =
    "<!-- rule table: generated from src/analyse/rule_table.cpp -->";
inline constexpr const char* kRuleTableEnd = "<!-- end of the generated rule table -->";

}  // namespace fb
